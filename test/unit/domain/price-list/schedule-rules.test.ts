/** Re-scan schedule rules (src/domain/price-list/schedule.ts): the sidebar's choices and the slots in a time zone. */
import { lastSlot, nextSlot, offsetFromZ, parseRule, ruleChoices, ruleLabel } from '../../../../src/domain/price-list/schedule';

const utc = () => 0;
/** New York in winter (-0500). */
const ny = () => -300;

test('the choices read back as the rules they name; anything else is refused', () => {
  for (const c of ruleChoices(6)) expect(ruleLabel(parseRule(c.value)!)).toBe(c.label);
  expect(ruleChoices(6).map((c) => c.label)).toContain('every Monday at 06:00');
  for (const bad of ['', 'w0@6', 'w8@6', 'm29@6', 'd1@6', 'd@24', 'x@1', 'w1@6;'] as const) expect(parseRule(bad)).toBeNull();
});

test('weekly: the latest Monday 06:00 and the next one, in UTC and in a zone behind it', () => {
  const r = parseRule('w1@6')!;
  const fri = Date.UTC(2026, 10, 20, 23, 30); // Friday
  expect(lastSlot(r, fri, utc)).toBe(Date.UTC(2026, 10, 16, 6));
  expect(nextSlot(r, fri, utc)).toBe(Date.UTC(2026, 10, 23, 6));
  // Monday 06:00 in New York is 11:00 UTC; at 10:59 UTC it has not come yet.
  expect(lastSlot(r, Date.UTC(2026, 10, 23, 10, 59), ny)).toBe(Date.UTC(2026, 10, 16, 11));
  expect(lastSlot(r, Date.UTC(2026, 10, 23, 11), ny)).toBe(Date.UTC(2026, 10, 23, 11));
  expect(nextSlot(r, Date.UTC(2026, 10, 23, 11), ny)).toBe(Date.UTC(2026, 10, 30, 11));
});

test('daily and monthly slots, across a month end and a year end', () => {
  expect(lastSlot(parseRule('d@6')!, Date.UTC(2026, 11, 1, 5), utc)).toBe(Date.UTC(2026, 10, 30, 6));
  expect(nextSlot(parseRule('d@6')!, Date.UTC(2026, 11, 1, 6), utc)).toBe(Date.UTC(2026, 11, 2, 6));
  const m = parseRule('m1@6')!;
  expect(lastSlot(m, Date.UTC(2027, 0, 1, 5), utc)).toBe(Date.UTC(2026, 11, 1, 6));
  expect(nextSlot(m, Date.UTC(2026, 11, 1, 6), utc)).toBe(Date.UTC(2027, 0, 1, 6));
  expect(nextSlot(parseRule('m28@23')!, Date.UTC(2027, 0, 28, 23), utc)).toBe(Date.UTC(2027, 1, 28, 23));
});

test("the zone offset as Utilities.formatDate's 'Z' writes it", () => {
  expect(offsetFromZ('-0500')).toBe(-300);
  expect(offsetFromZ('+0530')).toBe(330);
  expect(offsetFromZ('+0000')).toBe(0);
});
