/**
 * The service side of the list kinds (src/app/lists/service.ts): one per kind of the contract, and a
 * kind without one is refused, never read or written as another kind (issue 21: it used to fall
 * through to notes).
 */
import { LIST_OPERATIONS, type ListId } from '../../../../contract/lists';
import { BulkPacer } from '../../../../src/api/bulk-pacer';
import { LIST_KINDS } from '../../../../src/app/lists/kinds';
import { applySends, readServiceEntries } from '../../../../src/app/lists/service';
import { baseTabName, SHEET_NAME_MAX_XLSX } from '../../../../src/store/lists';
import { FakeClock, FakeFetcher } from '../../api/fakes';

function context() {
  const clock = new FakeClock();
  const fetcher = new FakeFetcher((req) => ({ status: 200, body: req.url.includes('/tags') ? {} : { data: [], total: 0 } }), clock);
  const deps = { fetcher, sleep: clock.sleep, now: clock.now, random: () => 0 };
  return {
    fetcher,
    ctx: {
      settings: { baseUrl: 'https://svc.test', apiKey: 'k-123456789012' },
      deps,
      pacer: new BulkPacer(clock.now, clock.sleep, null),
      deadline: clock.t + 60_000,
    },
  };
}

test('the add-on has a list kind for every kind of the contract, in the sidebar order', () => {
  expect(LIST_KINDS.map((k) => k.id)).toEqual(Object.keys(LIST_OPERATIONS));
});

test("every kind reads its own area: one request to the kind's path", () => {
  const seen: string[] = [];
  for (const id of Object.keys(LIST_OPERATIONS) as ListId[]) {
    const { fetcher, ctx } = context();
    readServiceEntries(ctx, id, 'US', ['US']);
    seen.push(
      id + ' ' + fetcher.requests.map((r) => r.method.toUpperCase() + ' ' + r.url.replace(/^https:\/\/svc\.test|\?.*$/g, '')).join(),
    );
  }
  expect(seen).toEqual([
    'tags GET /api/v3/public/tags',
    'notes GET /api/v3/public/notes',
    'brands GET /api/v3/brand-blocklist',
    'asins GET /api/v3/asin-blocklist',
    'matches GET /api/v3/listing-matches',
    'multipack GET /api/v3/multipack-corrections',
  ]);
});

test('a kind without its service side is refused, not read or written as notes', () => {
  const { fetcher, ctx } = context();
  const half = 'suppliers' as ListId;
  expect(() => readServiceEntries(ctx, half, null, ['US'])).toThrow('Unknown list "suppliers".');
  expect(() => applySends(ctx, half, [{ key: 'US\tB000000001', value: 'x' }], [], new Map())).toThrow('Unknown list "suppliers".');
  expect(fetcher.requests).toEqual([]);
});

test("every kind's base tab name fits the 31 characters of an .xlsx sheet name (a long kind id needs its short name)", () => {
  for (const k of LIST_KINDS) expect([k.id, baseTabName(k.id, 'abcdef012345').length <= SHEET_NAME_MAX_XLSX]).toEqual([k.id, true]);
});
