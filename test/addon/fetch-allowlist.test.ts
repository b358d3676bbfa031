/**
 * An address outside the manifest's urlFetchWhitelist: Google refuses the call before anything is
 * sent ("Request to … failed because the URL has not been whitelisted in the script manifest.",
 * developers.google.com/apps-script/manifest/allowlist-url). The add-on recognises it, does not retry
 * it, and tells the user the address is not one the add-on may call (BUILT add-on, local runtime
 * enforcing the built manifest's list, local service in a child process).
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { connect, runtime, thrown } from './scanflow-helpers';
import { startImportService } from './import-helpers';

jest.setTimeout(60_000);

describe('an address outside urlFetchWhitelist (developers.google.com/apps-script/manifest/allowlist-url)', () => {
  let service: SpawnedService;
  beforeAll(async () => {
    service = await startImportService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  test('one attempt, no retries, and a message that says the add-on may not call the address (Settings: service address)', async () => {
    const rt = runtime(new Workbook({ name: 'Supplier' }), { urlFetchWhitelist: 'manifest' });
    try {
      // The local service's loopback address is a valid Settings address, but not in the built manifest's list.
      connect(rt, service.url, service.apiKeys[0]);
      const origin = service.url.replace(/\/+$/, '');
      const msg = thrown(() => rt.scriptRun('listScans', [1]));
      expect(msg).toBe(
        `The add-on is not allowed to call ${origin}: Google lets it reach only the Scan Service addresses it was published with. Open Settings and set the service address to your Scan Service's address.`,
      );
      const run = rt.executions[rt.executions.length - 1];
      // No backoff waits (the old code waited 1 + 2 + 4 + 8 + 16 s before the same refusal).
      expect(run.durationMs).toBeLessThan(3000);
      expect(rt.logs.filter((l) => /attempt \d/.test(l))).toEqual([expect.stringMatching(/ -> unreachable \(attempt 1\)$/)]);
    } finally {
      await rt.stop();
    }
  });
});
