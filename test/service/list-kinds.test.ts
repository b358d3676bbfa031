/**
 * A list kind is named once in the contract (contract/lists.ts); the local service's side follows
 * from that table and the description, so a kind added in one place but not another fails here or
 * in the type checker, never silently (issue 21). The add-on's side: test/unit/app/lists/kinds.test.ts.
 */
import { loadApiDocument } from '../../contract/openapi';
import { LIST_OPERATIONS, type ListId } from '../../contract/lists';
import { listAreaPaths, listAreaPattern } from '../../emulator/service/areas';
import { startServiceInWorker } from '../../emulator/service/worker';
import { SharedClock } from '../../emulator/gas/shared-clock';

const KINDS = Object.keys(LIST_OPERATIONS) as ListId[];

test("every list kind names an operation of the description, and the front door's pattern takes every path of its area and no other area's", () => {
  const doc = loadApiDocument();
  const paths = listAreaPaths(doc);
  expect(Object.keys(paths).sort()).toEqual(KINDS.slice().sort());
  const pattern = listAreaPattern(doc);
  for (const p of Object.keys(doc.paths)) {
    const concrete = p.replace(/\{[^}]+\}/g, '7');
    const ofAKind = KINDS.some((k) => p === paths[k] || p.startsWith(paths[k] + '/'));
    expect([p, pattern.test(concrete), pattern.test(concrete + '?page=2')]).toEqual([p, ofAKind, ofAKind]);
  }
  expect(pattern.test('/api/v3/scans')).toBe(false);
  expect(pattern.test(paths.brands + '-old')).toBe(false);
});

test('a kind whose operation the description lacks (half added) stops the front door instead of being left out', () => {
  const doc = loadApiDocument();
  delete doc.paths[listAreaPaths(doc).multipack];
  expect(() => listAreaPattern(doc)).toThrow('List kind "multipack": operation listMultipackCorrections is not in the API description.');
});

test("the worker's front door answers and counts a request to each kind's area itself", async () => {
  const clock = new SharedClock(Date.parse('2026-11-02T10:00:00Z'));
  // Nothing listens at the forward address: a request passed on would fail with 502.
  const svc = await startServiceInWorker({ clock: clock.buffer, apiKeys: ['k-list-kinds-1'], forwardTo: 'http://127.0.0.1:9' });
  try {
    const paths = listAreaPaths(loadApiDocument());
    for (const k of KINDS) {
      const q = k === 'tags' ? '?marketplace_id=US' : '';
      const res = await fetch(svc.url + paths[k] + q, { headers: { Authorization: 'Bearer k-list-kinds-1' } });
      expect([k, res.status]).toEqual([k, 200]);
    }
    expect(await svc.listRequests()).toBe(KINDS.length);
  } finally {
    await svc.stop();
  }
});
