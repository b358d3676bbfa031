/**
 * Hostile uploads against a service in its own process (the shipped sample catalog): per upload,
 * the answer, the time to refuse (or accept), the largest resident set of the service process
 * during it (VmHWM, reset before each upload through /proc/<pid>/clear_refs), and the slowest
 * answer another account got meanwhile (a GET every 10 ms), which shows the reader yields.
 */
import { writeFileSync } from 'node:fs';
import { spawnService } from '../emulator/service/spawn';
import { blankLinesCsv, gigabyteSheet, peakRssMiB, priceList, rowThirtyMillion, threeMillionRows, type Upload } from './hostile-uploads';
import { runAlone } from './run-alone';

const KEYS = ['bench-hostile-a', 'bench-hostile-b'];

export async function benchServiceHostile(): Promise<Record<string, number | string>> {
  const svc = await spawnService({ SCAN_SERVICE_API_KEYS: KEYS.join(',') });
  const out: Record<string, number | string> = {};
  try {
    out['service at rest: peak RSS (MiB)'] = peakRssMiB(svc.pid);
    const makers: Array<() => Upload | Promise<Upload>> = [
      rowThirtyMillion,
      blankLinesCsv,
      threeMillionRows,
      () => gigabyteSheet(false),
      () => gigabyteSheet(true),
      () => priceList(100_000, 'csv'),
      () => priceList(100_000, 'xlsx'),
    ];
    for (const make of makers) {
      const u = await make();
      writeFileSync(`/proc/${svc.pid}/clear_refs`, '5'); // peak RSS from here
      const fd = new FormData();
      fd.append('file', new Blob([new Uint8Array(u.data)]), u.filename);
      fd.append(
        'attributes',
        JSON.stringify({ mapping: { id: 0, cost: 1 }, options: { marketplace_id: 'US', name: 'bench', header: true } }),
      );
      let done = false;
      let slowest = 0;
      const pings = (async () => {
        while (!done) {
          const t = Date.now();
          await fetch(`${svc.url}/api/v3/scans`, { headers: { authorization: `Bearer ${KEYS[1]}` } }).then((r) => r.arrayBuffer());
          slowest = Math.max(slowest, Date.now() - t);
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      const t0 = Date.now();
      const res = await fetch(`${svc.url}/api/v3/scans`, { method: 'POST', headers: { authorization: `Bearer ${KEYS[0]}` }, body: fd });
      const body = (await res.json()) as { id?: number; message?: string; limit?: string };
      const ms = Date.now() - t0;
      done = true;
      await pings;
      const label = `${u.what} (${(u.data.length / 1024).toFixed(1)} KB)`;
      out[label] =
        `${res.status}${body.limit ? ` ${body.limit}` : ''} in ${ms} ms; peak RSS ${peakRssMiB(svc.pid).toFixed(0)} MiB; slowest other request ${slowest} ms`;
      if (body.id) await fetch(`${svc.url}/api/v3/scans/${body.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${KEYS[0]}` } });
    }
  } finally {
    await svc.stop();
  }
  return out;
}

if (require.main === module) runAlone(benchServiceHostile);
