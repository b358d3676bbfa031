import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import * as functions from '../../../src/custom-functions/functions';
import { encodeFormulaShare, formulaSharePropertyName } from '../../../src/custom-functions/key';
import { NO_KEY_MESSAGE } from '../../../src/custom-functions/messages';
import { conversionService, FakeCache, FakeClock, FakeFetcher, upc } from '../api/fakes';

const FILE = join(__dirname, '../../../src/custom-functions/functions.ts');

describe('JSDoc that Sheets shows (copied onto the top-level declarations by the build)', () => {
  const source = ts.createSourceFile(FILE, readFileSync(FILE, 'utf8'), ts.ScriptTarget.ES2020, true);
  const decls = source.statements
    .filter(ts.isFunctionDeclaration)
    .filter((f) => f.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword));
  const names = decls.map((d) => d.name!.text);

  test('all nine functions are exported', () => {
    expect(names.sort()).toEqual(
      [
        'ASIN_FROM_EAN',
        'ASIN_FROM_ISBN',
        'ASIN_FROM_UPC',
        'EAN_FROM_ASIN',
        'GTIN_FROM_ASIN',
        'IDENTIFIERS_FROM_ASIN',
        'ISBN_FROM_ASIN',
        'JAN_FROM_ASIN',
        'UPC_FROM_ASIN',
      ].sort(),
    );
    expect(Object.keys(functions).sort()).toEqual(names.sort());
  });

  test.each(decls.map((d) => [d.name!.text, d] as const))(
    '%s: description, @param {type} for each parameter, @return, @customfunction',
    (_n, d) => {
      const ranges = ts.getLeadingCommentRanges(source.getFullText(), d.getFullStart()) ?? [];
      const doc =
        ranges
          .map((r) => source.getFullText().slice(r.pos, r.end))
          .filter((c) => c.startsWith('/**'))
          .pop() ?? '';
      expect(doc).toMatch(/@customfunction/);
      expect(doc).toMatch(/@return \S+/);
      expect(doc.split('\n')[1]).toMatch(/\* \w+/); // a description first
      for (const p of d.parameters) expect(doc).toMatch(new RegExp('@param \\{[^}]+\\} ' + p.name.getText() + ' \\S+'));
      expect((doc.match(/@param/g) ?? []).length).toBe(d.parameters.length);
    },
  );
});

describe('entry points bound to Apps Script globals', () => {
  const g = globalThis as any;
  const saved: Record<string, unknown> = {};
  const names = ['UrlFetchApp', 'CacheService', 'Utilities', 'PropertiesService', 'SpreadsheetApp', 'ADDON_DEFAULT_SERVICE_URL'];
  let clock: FakeClock;
  let fetcher: FakeFetcher;
  let userProps: Record<string, string>;

  beforeEach(() => {
    for (const n of names) saved[n] = g[n];
    clock = new FakeClock();
    const U = upc('01234567890');
    fetcher = new FakeFetcher(conversionService({ convert: { [U]: ['B000000001'] } }), clock);
    const cache = new FakeCache(clock);
    userProps = {};
    g.UrlFetchApp = fetcher;
    g.CacheService = { getDocumentCache: () => cache };
    g.Utilities = { sleep: clock.sleep };
    g.PropertiesService = { getUserProperties: () => ({ getProperty: (k: string) => userProps[k] ?? null }) };
    // A file in My Drive: it has an owner (Spreadsheet.getOwner() is null only in a shared drive).
    g.SpreadsheetApp = {
      getActiveSpreadsheet: () => ({ getId: () => 'doc-1', getOwner: () => ({ getEmail: () => 'owner@example.com' }) }),
    };
    g.ADDON_DEFAULT_SERVICE_URL = 'https://default.example.com';
  });
  afterEach(() => {
    for (const n of names) g[n] = saved[n];
  });

  test('without the owner sharing a key for this document, cells say what to do and nothing is fetched', () => {
    expect(functions.ASIN_FROM_UPC([['012345678905'], ['']])).toEqual([[NO_KEY_MESSAGE], ['']]);
    expect(fetcher.waves.length).toBe(0);
  });

  test('with the shared key: one call, the shared address and marketplace; the recalculation uses the document cache', () => {
    userProps[formulaSharePropertyName('doc-1')] = encodeFormulaShare({
      v: 1,
      apiKey: 'shared-key-1234567',
      baseUrl: 'https://svc.example.com',
      marketplace: 'CA',
    });
    expect(functions.ASIN_FROM_UPC(12345678905)).toBe('B000000001');
    expect(fetcher.requests[0].url).toBe('https://svc.example.com/api/v3/convert');
    expect(JSON.parse(fetcher.requests[0].payload!).marketplace).toBe('CA');
    expect(functions.ASIN_FROM_UPC('012345678905')).toBe('B000000001');
    expect(fetcher.requests.length).toBe(1);
    expect(functions.IDENTIFIERS_FROM_ASIN('B000000001')).toEqual([
      ['UPC', 'EAN', 'ISBN', 'GTIN', 'JAN'],
      ['not found', '', '', '', ''],
    ]);
  });
});
