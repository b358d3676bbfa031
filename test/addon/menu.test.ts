/**
 * Every menu item of the BUILT add-on (src/entry/menu.ts, MENU_ITEMS), clicked by a seller with no
 * key saved and by one whose key the Scan Service refuses (401): what the seller sees (alerts,
 * prompts, toasts) is plain words and what to do, never a marker meant for the sidebar
 * (issue 32 item 4: "Sync lists now" showed "[open-settings] No API key…").
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime, UiEvent } from '../../emulator/gas';
import { connect, runtime } from './scanflow-helpers';
import { startImportService, supplierRows, uploadScan, waitFinished } from './import-helpers';
import { MENU_ITEMS } from '../../src/entry/menu';

jest.setTimeout(120_000);

const KEY = 'menu-key-0123456789';
const REFUSED = 'refused-key-0123456789';
const OWNER = 'owner@example.com';
const NO_KEY_USER = 'editor@example.com';
let service: SpawnedService;

beforeAll(async () => {
  service = await startImportService({ SCAN_SERVICE_API_KEYS: KEY });
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

/** A document with a result tab and the lists (set up with a good key), and a column of UPCs on a sheet of its own. */
async function documentWithResultTab(): Promise<{ rt: Runtime; wb: Workbook; resultTab: string }> {
  const wb = new Workbook({ name: 'Sourcing', owner: OWNER });
  wb.addSheet('UPCs');
  wb.type('UPCs', 'A1', 'UPC');
  wb.type('UPCs', 'A2', '012345678905');
  const rt = runtime(wb);
  connect(rt, service.url, KEY, OWNER);
  const scanId = await uploadScan({ url: service.url, apiKey: KEY }, supplierRows(6, 0), 'Price list');
  await waitFinished({ url: service.url, apiKey: KEY }, scanId);
  let p: any;
  do p = rt.scriptRun('importScan', [scanId, null], { user: OWNER });
  while (!p.done);
  // The lists set up and synced once, so that "Sync lists now" asks the service.
  rt.scriptRun('setUpLists', [], { user: OWNER });
  rt.scriptRun('syncNow', [false], { user: OWNER });
  rt.run('onOpen');
  return { rt, wb, resultTab: p.sheetName };
}

/** Where the seller is when choosing each item: the UPC column for Convert, result rows otherwise. */
function place(wb: Workbook, fn: string, resultTab: string): void {
  const s = wb.requireSheet(fn === 'menuConvertColumn' ? 'UPCs' : resultTab);
  wb.activeSheet = s;
  wb.activeRange = fn === 'menuConvertColumn' ? { sheet: s, r1: 1, c1: 1, r2: 2, c2: 1 } : { sheet: s, r1: 2, c1: 1, r2: 3, c2: 5 };
}

/** What a prompting item is answered (the seller types something and presses OK). */
const TYPED: Record<string, string> = { menuSetUnits: '4', menuAddTags: 'clearance', menuAddNote: 'ask for a discount' };

/** The items that reach the Scan Service, so they must say what to do about the key. */
const NEEDS_KEY = ['menuConvertColumn', 'menuSyncLists', 'menuBlockBrands', 'menuBlockAsins', 'menuNotAMatch', 'menuConfirmMatch'];
const NEEDS_KEY_AFTER_PROMPT = ['menuSetUnits', 'menuAddTags', 'menuAddNote'];

function shown(events: UiEvent[]): string[] {
  return events.flatMap((e) =>
    e.kind === 'toast' ? [e.title + ': ' + e.message] : e.kind === 'alert' || e.kind === 'prompt' ? [e.title + ': ' + e.prompt] : [],
  );
}

const ITEMS = MENU_ITEMS.filter((i): i is readonly [string, string] => !!i);

describe.each([
  ['no key saved', NO_KEY_USER, /No API key is saved yet\..*Settings/s],
  ['a key the service refuses (401)', OWNER, /The API key was refused by the Scan Service\..*Settings/s],
])('%s', (_label, user, expected) => {
  let rt: Runtime;
  let wb: Workbook;
  let resultTab: string;
  beforeAll(async () => {
    ({ rt, wb, resultTab } = await documentWithResultTab());
    if (user === OWNER) connect(rt, service.url, REFUSED, OWNER);
  });
  afterAll(() => rt?.stop());

  test.each(ITEMS)('"%s" (%s): plain words and what to do, never a marker', (_caption, fn) => {
    place(wb, fn, resultTab);
    if (TYPED[fn]) rt.state.uiAnswers.push({ button: 'OK', text: TYPED[fn] });
    const before = rt.uiEvents.length;
    rt.run(fn, [], { user });
    const events = rt.uiEvents.slice(before);
    const texts = shown(events);
    for (const t of texts) expect(t).not.toMatch(/\[[a-z-]+\]/);
    if (NEEDS_KEY.includes(fn) || NEEDS_KEY_AFTER_PROMPT.includes(fn)) expect(texts.join('\n')).toMatch(expected);
    // Every item shows something: a message, a question or the sidebar.
    expect(events.filter((e) => e.kind !== 'log').length).toBeGreaterThan(0);
  });
});
