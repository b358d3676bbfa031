/**
 * Shared set-up of the scan-flow tests (settings, new scan, progress): the BUILT add-on in the
 * local Apps Script runtime, the local Scan Service in a child process, a fault-injecting proxy,
 * and a messy supplier sheet.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { createRuntime, temporaryActiveUserKey, type Runtime, type RuntimeOptions } from '../../emulator/gas';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { readCatalogRecords, SAMPLE_CATALOG_PATH } from '../../emulator/service/catalog';
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import { childStandIn, PRINTED_PORT, type StandIn } from '../../emulator/stand-in';

export const ROOT = join(__dirname, '..', '..');
export const SAMPLE = join(ROOT, 'samples', 'supplier-price-list.xlsx');
export const START = Date.UTC(2026, 10, 20, 23, 30, 0);

export function runtime(workbook: Workbook, opts: RuntimeOptions = {}): Runtime {
  return createRuntime({ workbook, startTime: START, urlFetchTimeoutMs: 10_000, ...opts });
}

/**
 * The running-scan record's user tag (src/app/scan/running.ts): 12 hex digits of SHA-256 of the
 * user's Session.getTemporaryActiveUserKey() (not of the email, which Google may withhold).
 */
export function runningTag(email: string): string {
  return createHash('sha256').update(temporaryActiveUserKey(email)).digest('hex').slice(0, 12);
}

/** Saves address and key through the add-on, as the user does in Settings. */
export function connect(rt: Runtime, url: string, apiKey: string, user?: string, marketplace?: string): void {
  rt.scriptRun(
    'saveSettings',
    [{ apiKey, serviceUrl: url, ...(marketplace ? { defaultMarketplace: marketplace } : {}) }],
    user ? { user } : {},
  );
}

/** The message of what fn throws (script-realm errors fail instanceof). */
export function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return String((e as Error)?.message ?? e);
  }
  throw new Error('expected an exception, none was thrown');
}

/** Every text the add-on could have left anywhere but the user's own properties. */
export function everythingOutsideUserProperties(rt: Runtime, wb: Workbook): string {
  const parts: string[] = [];
  parts.push(JSON.stringify(rt.properties.document?.toObject() ?? {}));
  parts.push(JSON.stringify(rt.properties.script.toObject()));
  parts.push(rt.logs.join('\n'));
  parts.push(JSON.stringify(rt.uiEvents));
  for (const name of wb.sheetNames()) {
    const sh = wb.requireSheet(name);
    for (let r = 1; r <= sh.lastRow(); r++) {
      for (let c = 1; c <= sh.lastColumn(); c++) {
        const snap = wb.cell(name, wb.a1(r, c));
        parts.push(String(snap.value), snap.display, snap.formula, snap.note);
      }
    }
    parts.push(name);
  }
  return parts.join('\n');
}

/** A port nothing listens on (opened, then closed). */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface Seen {
  method: string;
  path: string;
  status: number;
  injected: boolean;
  contentType: string;
  authorization: string;
  body: string;
}

export interface FaultRule {
  method?: string;
  /** RegExp source matched against the path (no query). */
  path: string;
  status: number;
  times: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
}

export interface FaultProxy extends StandIn {
  faults(rules: FaultRule[]): Promise<void>;
  seen(): Promise<Seen[]>;
  reset(): Promise<void>;
}

/** Starts scanflow-fault-proxy.cjs in front of `target`. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const { url, stop } = await startChildProxy('scanflow-fault-proxy.cjs', target);
  return {
    url,
    faults: async (rules) => {
      // Once more when the kept-alive connection was closed meanwhile (a long synchronous run in between:
      // seen failing as "other side closed" with two test runs on two cores).
      const send = () => fetch(url + '/__faults', { method: 'POST', body: JSON.stringify(rules) });
      await send().catch(send);
    },
    // Once more when the kept-alive connection was closed meanwhile (a long synchronous run in between).
    seen: async () => (await (await fetch(url + '/__seen').catch(() => fetch(url + '/__seen'))).json()) as Seen[],
    reset: async () => {
      // Once more when the kept-alive connection was closed meanwhile (a paced test waits minutes of virtual time).
      await fetch(url + '/__reset', { method: 'POST' }).catch(() => fetch(url + '/__reset', { method: 'POST' }));
    },
    stop,
  };
}

/**
 * For a test file: the local service in a child process (with `env` settings) behind a fault proxy,
 * started before its tests (the returned object is filled in then) and stopped after them; before
 * each test the proxy forgets its rules and what it saw.
 */
export function useServiceBehindProxy(env: Record<string, string> = {}, timeoutMs?: number): { svc: SpawnedService; proxy: FaultProxy } {
  const served = {} as { svc: SpawnedService; proxy: FaultProxy };
  beforeAll(async () => {
    served.svc = await spawnService(env);
    served.proxy = await startFaultProxy(served.svc.url);
  }, timeoutMs);
  afterAll(async () => {
    await served.proxy?.stop();
    await served.svc?.stop();
  });
  beforeEach(async () => {
    await served.proxy.reset();
  });
  return served;
}

/** Starts one of the proxies of this folder (`file`, a .cjs printing "PORT <n>") in front of `target`, as a child process. */
export function startChildProxy(file: string, target: string): Promise<StandIn> {
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, file), target], { stdio: ['ignore', 'pipe', 'inherit'] });
  return childStandIn(child, file, 10_000, PRINTED_PORT).then(({ url, stop }) => ({ url, stop }));
}

export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  text: string;
}

/** Parses a multipart/form-data body (text parts only) by its boundary. */
export function parseMultipart(body: string, contentType: string): Record<string, Part> {
  const m = /boundary=("?)([^";]+)\1/i.exec(contentType);
  if (!m) throw new Error('not multipart: ' + contentType);
  const out: Record<string, Part> = {};
  for (const chunk of body.split('--' + m[2]).slice(1)) {
    if (chunk.startsWith('--')) break;
    const sep = chunk.indexOf('\r\n\r\n');
    const head = chunk.slice(0, sep);
    const text = chunk.slice(sep + 4).replace(/\r\n$/, '');
    const name = /name="([^"]*)"/.exec(head)![1];
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    const ct = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1];
    out[name] = { name, filename, contentType: ct, text };
  }
  return out;
}

/**
 * A messy supplier sheet, typed as a user would (so "0036000291452" loses its zero, "5.01234E+12"
 * becomes a number): two title rows, a blank row, the header on row 4, then rows with lost leading
 * zeros, scientific notation, "$1,299.00" and "1.299,00 €", blank rows, formula-bait text.
 */
export function messyWorkbook(): Workbook {
  const wb = new Workbook({ name: 'Messy supplier', empty: true });
  const sheet = 'Supplier';
  wb.addSheet(sheet);
  const rows: unknown[][] = [
    ['ACME Wholesale — price list', '', '', '', ''],
    ['Valid until 31 Dec', '', '', '', ''],
    ['', '', '', '', ''],
    ['UPC', 'Item #', 'Description', 'Unit Cost', 'MAP'],
    ['036000291452', 'A-1', 'Tissue, 2-ply', '$1,299.00', '1499'], // 5: lost leading zero (typed -> number)
    ['5.01234E+12', 'A-2', 'Sci notation', '3.50', ''], // 6: digits lost
    ['', '', '', '', ''], // 7: blank row
    ['4006381333931', 'A-3', '\'=HYPERLINK("http://evil","x")', "'1.299,00 €", ''], // 8: EU cost, formula bait
    ['012345678905', 'A-4', '+1 555 0100', "'$1,299.00", 'n/a'], // 9: leading zero, bait, money text, MAP unreadable
    ['', 'A-5', 'No id', '4.00', ''], // 10: no identifier
    ['036000291452', 'A-6', 'Dup of row 5', 'call', ''], // 11: unusable cost
    ['036000291452', 'A-7', 'Dup, other pack', '12.5', ''], // 12: duplicate of row 5
  ];
  rows.forEach((row, i) => row.forEach((v, j) => v !== '' && wb.type(sheet, wb.a1(i + 1, j + 1), v)));
  return wb;
}

/**
 * US UPCs of the shipped sample catalog (the spawned service's) that are on exactly one ASIN.
 * Read on first use: reading the catalog costs about a second, and most files importing this
 * module never need it.
 */
let catalogUpcsRead: string[] | null = null;
function catalogUpcs(): string[] {
  if (catalogUpcsRead) return catalogUpcsRead;
  const seen = new Map<string, number>();
  for (const r of readCatalogRecords(SAMPLE_CATALOG_PATH))
    if (r.marketplace_id === 1) for (const u of r.identifiers.upc ?? []) seen.set(u, (seen.get(u) ?? 0) + 1);
  catalogUpcsRead = [...seen].filter(([, n]) => n === 1).map(([u]) => u);
  return catalogUpcsRead;
}

/**
 * A clean list of `n` valid UPCs: odd rows (the first included) are in the catalog and give one
 * product each, even rows are not and give an error row, so the service's speed (products per
 * minute) is about half the lines per minute.
 */
export function listWorkbook(n: number, owner: string): Workbook {
  const wb = new Workbook({ name: 'List', owner, empty: true });
  const sh = wb.addSheet('List');
  const upcs = catalogUpcs();
  wb.writeInput(sh, 1, 1, 'UPC');
  wb.writeInput(sh, 1, 2, 'Cost');
  for (let i = 0; i < n; i++) {
    const body = String(36000290000 + i * 13).padStart(11, '0');
    let sum = 0;
    for (let k = 0; k < 11; k++) sum += Number(body[k]) * (k % 2 === 0 ? 3 : 1);
    wb.writeInput(sh, i + 2, 1, "'" + (i % 2 === 0 ? upcs[i / 2] : body + ((10 - (sum % 10)) % 10)));
    wb.writeInput(sh, i + 2, 2, 2 + i / 10);
  }
  return wb;
}

/** A time as the quota notices write it in a UTC spreadsheet: "14:05", or "14:05 on Nov 21". */
export function utcClockText(ms: number, withDay: boolean): string {
  const d = new Date(ms);
  const hm = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  return withDay ? `${hm} on ${d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${d.getUTCDate()}` : hm;
}

/**
 * The startScan request the sidebar sends from getScanSetup's answer `setup`: the suggested role of
 * each column, the sheet and range it read, and the chosen `options` (marketplace, name, ...).
 */
export function scanRequest(setup: any, options: Record<string, unknown>) {
  return {
    roles: setup.columns.map((c: any) => c.role),
    options,
    sheetName: setup.sheetName,
    rangeA1: setup.rangeA1,
    selection: setup.selection,
  };
}
