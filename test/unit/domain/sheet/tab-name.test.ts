/**
 * src/domain/sheet/tab-name.ts: every tab the add-on makes has a name an .xlsx file holds (31 characters,
 * none of \ / ? * [ ] :), unique in the spreadsheet, cut by character with the date and kind kept.
 */
import { cleanTabName, fitName, TAB_NAME_MAX, tabName } from '../../../../src/domain/sheet/tab-name';

const LONG = 'Acme Wholesale Spring Catalogue 2026 Q1'; // 39 characters
const DATED = LONG + ' 2026-11-26';

/** True when the text has a UTF-16 high surrogate without its low half (half an emoji). */
const loneSurrogate = (t: string) => /[\ud800-\udbff](?![\udc00-\udfff])|(?:[^\ud800-\udbff]|^)[\udc00-\udfff]/.test(t);

describe('tabName', () => {
  test('a name that fits stays as it is; one line, trimmed; a fallback for a blank name', () => {
    expect(tabName('Socks run', [])).toBe('Socks run');
    expect(tabName('  Spring\n list\t2026 ', [])).toBe('Spring list 2026');
    expect(tabName(' \n ', [], { fallback: 'Scan 7' })).toBe('Scan 7');
    expect(tabName('Socks run', [], { suffix: ' – errors' })).toBe('Socks run – errors');
  });

  test('a long name is cut to 31 characters with a visible "…", keeping its date and the kind suffix whole', () => {
    const result = tabName(DATED, []);
    expect(result).toBe('Acme Wholesale Spri… 2026-11-26');
    expect(result).toHaveLength(TAB_NAME_MAX);
    const errors = tabName(result, [result], { suffix: ' – errors' });
    expect(errors).toBe('Acme Whole… 2026-11-26 – errors');
    const filtered = tabName(DATED, [result], { suffix: ' (filtered)' });
    expect(filtered).toBe('Acme Who… 2026-11-26 (filtered)');
    // A name without a date keeps its beginning.
    expect(tabName(LONG, [], { suffix: ' (CSV)' })).toBe('Acme Wholesale Spring Ca… (CSV)');
    for (const n of [result, errors, filtered]) expect(n.length).toBeLessThanOrEqual(TAB_NAME_MAX);
  });

  test('a name already cut is cut again with one mark, not two', () => {
    const once = tabName(DATED, []);
    const twice = tabName(once, [], { suffix: ' – Negotiate' });
    expect(twice.length).toBeLessThanOrEqual(TAB_NAME_MAX);
    expect(twice.match(/…/g)).toHaveLength(1);
    expect(twice.endsWith(' – Negotiate')).toBe(true);
  });

  test('never half an emoji at the cut: the cut falls before the whole character', () => {
    // 😀 is two UTF-16 units: 15 of them are 30 units; the 16th would pass 31 with the mark.
    const name = tabName('😀'.repeat(20), []);
    expect(name).toBe('😀'.repeat(15) + '…');
    expect(loneSurrogate(name)).toBe(false);
    // An odd room: the emoji that would be cut in half is left out whole.
    const odd = tabName('a' + '😀'.repeat(20), [], { suffix: ' – PO' });
    expect(odd.length).toBeLessThanOrEqual(TAB_NAME_MAX);
    expect(loneSurrogate(odd)).toBe(false);
    expect(odd).toBe('a' + '😀'.repeat(12) + '… – PO');
  });

  test('unique case-insensitively: " (2)", " (3)" after the suffix, the name cut further to leave room', () => {
    expect(tabName('List', ['Sheet1'])).toBe('List');
    expect(tabName('List', ['list', 'LIST (2)'])).toBe('List (3)');
    const first = tabName(DATED, [], { suffix: ' – errors' });
    const second = tabName(DATED, [first], { suffix: ' – errors' });
    expect(second).toBe('Acme W… 2026-11-26 – errors (2)');
    const taken = [first, second];
    for (let i = 0; i < 10; i++) taken.push(tabName(DATED, taken, { suffix: ' – errors' }));
    expect(new Set(taken.map((t) => t.toLowerCase())).size).toBe(taken.length);
    for (const t of taken) expect(t.length).toBeLessThanOrEqual(TAB_NAME_MAX);
    expect(taken[taken.length - 1]).toBe('Acme… 2026-11-26 – errors (12)');
  });

  test('no character an .xlsx sheet name cannot hold (\\ / ? * [ ] :, an apostrophe at either end)', () => {
    expect(tabName("'Acme 11/26: [A*]?'", [])).toBe('Acme 11-26. (A)');
    expect(cleanTabName('a\\b')).toBe('a-b');
    for (const n of [tabName('x:y/z', []), tabName('q', [], { suffix: ' [x]' })]) expect(n).not.toMatch(/[\\/?*[\]:]/);
  });
});

describe('fitName', () => {
  test('the tail is given back to the beginning when keeping it whole would leave fewer than 3 characters', () => {
    expect(fitName('Supplier 2026-11-26', 8)).toBe('Supplie…');
    expect(fitName('Supplier 2026-11-26', 15)).toBe('Sup… 2026-11-26');
  });
});
