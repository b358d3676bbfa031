import { guardVerdict, planSync, sameEntries, type PlanInput } from '../../../../src/app/lists/plan';

const m = (o: Record<string, string>) => new Map(Object.entries(o));
type Input = Omit<PlanInput, 'base' | 'sheet' | 'service'> & {
  sheet: Record<string, string>;
  service: Record<string, string>;
  base?: Record<string, string> | null;
};
const plan = (i: Input) =>
  planSync({ ...i, base: i.base === undefined || i.base === null ? null : m(i.base), sheet: m(i.sheet), service: m(i.service) });

describe('planSync (three-way merge)', () => {
  test('first sync merges: one-sided entries go to the other side, nothing is deleted', () => {
    const p = plan({ base: null, sheet: { a: '1', b: '2' }, service: { b: '2', c: '3' } });
    expect(p.sendUpsert).toEqual([{ key: 'a', value: '1' }]);
    expect(p.writeUpsert).toEqual([{ key: 'c', value: '3' }]);
    expect(p.sendDelete).toEqual([]);
    expect(p.writeDelete).toEqual([]);
    expect(Object.fromEntries(p.nextBase)).toEqual({ a: '1', b: '2', c: '3' });
  });

  test('first sync with different values on both sides is a conflict, neither side changes', () => {
    const p = plan({ base: null, sheet: { a: '1' }, service: { a: '2' } });
    expect(p.conflicts).toEqual([{ key: 'a', base: null, sheet: '1', service: '2' }]);
    expect(p.sendUpsert).toEqual([]);
    expect(p.writeUpsert).toEqual([]);
    expect(p.nextBase.has('a')).toBe(false);
  });

  test('changed only in the sheet is sent; only on the service is written', () => {
    const p = plan({ base: { a: '1', b: '1' }, sheet: { a: '2', b: '1' }, service: { a: '1', b: '3' } });
    expect(p.sendUpsert).toEqual([{ key: 'a', value: '2' }]);
    expect(p.writeUpsert).toEqual([{ key: 'b', value: '3' }]);
    expect(Object.fromEntries(p.nextBase)).toEqual({ a: '2', b: '3' });
  });

  test('deleted on one side is deleted on the other', () => {
    const p = plan({ base: { a: '1', b: '1' }, sheet: { b: '1' }, service: { a: '1' } });
    expect(p.sendDelete).toEqual([{ key: 'a', value: '1' }]);
    expect(p.writeDelete).toEqual(['b']);
    expect(p.nextBase.size).toBe(0);
  });

  test('the same change on both sides is no work', () => {
    const p = plan({ base: { a: '1' }, sheet: { a: '2', n: 'x' }, service: { a: '2', n: 'x' } });
    expect([p.sendUpsert, p.sendDelete, p.writeUpsert, p.writeDelete, p.conflicts].every((l) => l.length === 0)).toBe(true);
    expect(Object.fromEntries(p.nextBase)).toEqual({ a: '2', n: 'x' });
  });

  test('changed differently on both sides (or changed vs deleted) is a conflict keeping the base', () => {
    const p = plan({ base: { a: '1', b: '1' }, sheet: { a: '2' }, service: { a: '3', b: '4' } });
    expect(p.conflicts).toEqual([
      { key: 'a', base: '1', sheet: '2', service: '3' },
      { key: 'b', base: '1', sheet: null, service: '4' },
    ]);
    expect(Object.fromEntries(p.nextBase)).toEqual({ a: '1', b: '1' });
  });

  test('resolutions: the sheet side is sent, the service side is written, per key or for all', () => {
    const input = { base: { a: '1', b: '1' }, sheet: { a: '2' }, service: { a: '3', b: '4' } };
    const bySheet = plan({ ...input, resolutions: { '*': 'sheet' } });
    expect(bySheet.sendUpsert).toEqual([{ key: 'a', value: '2' }]);
    expect(bySheet.sendDelete).toEqual([{ key: 'b', value: '4' }]);
    expect(bySheet.conflicts).toEqual([]);
    const byService = plan({ ...input, resolutions: { a: 'service' } });
    expect(byService.writeUpsert).toEqual([{ key: 'a', value: '3' }]);
    expect(byService.conflicts.map((c) => c.key)).toEqual(['b']);
    expect(Object.fromEntries(byService.nextBase)).toEqual({ a: '3', b: '1' });
  });

  test('held keys (refused rows) are neither sent, written nor deleted, and keep their base', () => {
    const p = plan({ base: { a: '1' }, sheet: {}, service: { a: '1', c: '2' }, held: new Set(['a', 'c']) });
    expect([p.sendUpsert, p.sendDelete, p.writeUpsert, p.writeDelete].every((l) => l.length === 0)).toBe(true);
    expect(Object.fromEntries(p.nextBase)).toEqual({ a: '1' });
  });

  test('re-planning after a partial apply gives only the work left', () => {
    const base = { a: '1', b: '1' };
    const sheet = { a: '2', c: '5' };
    const first = plan({ base, sheet, service: { a: '1', b: '1' } });
    expect(first.sendUpsert.length + first.sendDelete.length).toBe(3);
    // the upsert of a went through before the cut-off; b's delete and c's add did not
    const again = plan({ base, sheet, service: { a: '2', b: '1' } });
    expect(again.sendUpsert).toEqual([{ key: 'c', value: '5' }]);
    expect(again.sendDelete).toEqual([{ key: 'b', value: '1' }]);
  });
});

describe('guardVerdict', () => {
  const many = (n: number, prefix = 'k') => Object.fromEntries(Array.from({ length: n }, (_, i) => [prefix + i, 'v']));
  test('a cleared sheet of 100 entries is stopped (more than 50 and more than a fifth)', () => {
    const all = many(100);
    const v = guardVerdict(plan({ base: all, sheet: {}, service: all }));
    expect(v.blocked).toBe(true);
    expect(v.serviceDeletions).toBe(100);
    expect(v.message).toMatch(/delete 100 of 100 entries on the service/);
  });
  test('51 deletions of 1,000 (under a fifth) and 50 of 60 (not over 50) pass', () => {
    const big = many(1000);
    const sheet = { ...big };
    for (let i = 0; i < 51; i++) delete sheet['k' + i];
    expect(guardVerdict(plan({ base: big, sheet, service: big })).blocked).toBe(false);
    const small = many(60);
    const s2 = { ...small };
    for (let i = 0; i < 50; i++) delete s2['k' + i];
    expect(guardVerdict(plan({ base: small, sheet: s2, service: small })).blocked).toBe(false);
  });
  test('a list emptied on the service stops the sheet side', () => {
    const all = many(80);
    const v = guardVerdict(plan({ base: all, sheet: all, service: {} }));
    expect(v.blocked).toBe(true);
    expect(v.sheetDeletions).toBe(80);
    expect(v.message).toMatch(/delete 80 of 80 rows in the sheet/);
  });
});

test('sameEntries', () => {
  expect(sameEntries(null, m({}))).toBe(false);
  expect(sameEntries(m({ a: '1' }), m({ a: '1' }))).toBe(true);
  expect(sameEntries(m({ a: '1' }), m({ a: '2' }))).toBe(false);
});
