/**
 * New scan on the BUILT add-on in the local runtime (local service behind the recording proxy): the
 * header row of a selection in the middle of a list (issue 27.1), what the preview refuses rather than
 * call ready (a data row as header, descriptions as identifiers, a selling price as cost), ASINs in a
 * UPC column (27.5), and cells the upload would refuse (26.6, 26.10).
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import { parseCsv } from '../../src/domain/price-list/csv';
import { ORDER_FORM_FIRST_COLUMN, ORDER_FORM_HEADERS, orderFormRows } from '../unit/domain/price-list/order-form';
import { connect, parseMultipart, runtime, SAMPLE, scanRequest, thrown, useServiceBehindProxy } from './scanflow-helpers';

const env = useServiceBehindProxy({ SCAN_SERVICE_SPEED: '600000' });

async function uploads() {
  return (await env.proxy.seen()).filter((s) => s.method === 'POST' && s.path === '/api/v3/scans');
}

function requestFrom(setup: any, options: Record<string, unknown> = {}) {
  return {
    ...scanRequest(setup, { marketplace: setup.defaultMarketplace, name: setup.defaultName, ...options }),
    headerRow: setup.headerRow,
  };
}

const SAMPLE_COLUMNS = [
  ['Item Code', 'sku'],
  ['UPC', 'identifier'],
  ['Description', 'custom'],
  ['Unit Cost', 'cost'],
  ['MSRP/MAP', 'map'],
  ['Qty Avail', 'stock'],
  ['Case Pack', 'custom'],
];

async function sampleWithSelection(r1: number, r2: number) {
  const wb = await Workbook.fromXlsx(SAMPLE);
  const rt = runtime(wb);
  connect(rt, env.proxy.url, env.svc.apiKey);
  const sh = wb.requireSheet('Price List');
  wb.activeSheet = sh;
  wb.activeRange = { sheet: sh, r1, c1: 1, r2, c2: 7 };
  return { wb, rt };
}

describe('a selection in the middle of the shipped sample (issue 27.1)', () => {
  test.each([
    [40, 50],
    [60, 80],
    [100, 120],
    [150, 170],
    [200, 210],
    [250, 280],
  ])('A%i:G%i takes its column names from row 1, every selected row is data, and the preview is ready', async (r1, r2) => {
    const { rt } = await sampleWithSelection(r1, r2);
    const setup = rt.scriptRun('getScanSetup') as any;
    expect(setup).toEqual(expect.objectContaining({ rangeA1: `A${r1}:G${r2}`, headerRow: 1, headerQuestion: '', rowCount: r2 - r1 + 1 }));
    expect(setup.columns.map((c: any) => [c.header, c.role])).toEqual(SAMPLE_COLUMNS);
    const p = rt.scriptRun('previewScan', [requestFrom(setup)]) as any;
    expect(p.problems).toEqual([]);
    expect(p.counts.dataRows).toBe(r2 - r1 + 1);
    expect(p.csvHeader.slice(0, 2)).toEqual(['UPC', 'Unit Cost']);
    await rt.stop();
  });

  test('the rows above a selection are read in one call (not only 30 rows: A150:G170 reads rows 1-149)', async () => {
    const { rt } = await sampleWithSelection(150, 170);
    rt.scriptRun('getScanSetup');
    const exec = rt.executions[rt.executions.length - 1];
    // Block top (values + display: 2 x 21 x 7), rows 1-149 above (one read: 149 x 7), the header row (values + display: 2 x 7).
    expect(exec.counters.sheetReadCalls).toBe(5);
    expect(exec.counters.cellsRead).toBe(2 * 21 * 7 + 149 * 7 + 2 * 7);
    await rt.stop();
  });

  test('a data row chosen as the header row: setup says so, and the preview refuses instead of calling it ready', async () => {
    const { rt } = await sampleWithSelection(150, 170);
    const first = rt.scriptRun('getScanSetup') as any;
    const chosen = rt.scriptRun('getScanSetup', [
      { sheetName: first.sheetName, rangeA1: first.rangeA1, selection: true, headerRow: 142 },
    ]) as any;
    expect(chosen.headerRow).toBe(142);
    expect(chosen.headerQuestion).toBe(
      'Row 142 holds data ("90657800566", "1.55"), not column names: taken as the header row, it would never be scanned. Enter the number of the row with the column names (0 if the list has none).',
    );
    const p = rt.scriptRun('previewScan', [requestFrom(chosen)]) as any;
    expect(p.ok).toBe(false);
    expect(p.problems[0]).toEqual({ field: 'headerRow', message: chosen.headerQuestion });
    expect(thrown(() => rt.scriptRun('startScan', [requestFrom(chosen)]))).toMatch(/^The scan was not started: Row 142 holds data/);
    expect(await uploads()).toHaveLength(0);
    await rt.stop();
  });

  test('the cost column holding MSRP/MAP, or the identifier column holding descriptions: never "ready"', async () => {
    const { rt } = await sampleWithSelection(150, 170);
    const setup = rt.scriptRun('getScanSetup') as any;
    const mapAsCost = requestFrom(setup);
    mapAsCost.roles = ['sku', 'identifier', 'custom', 'map', 'cost', 'stock', 'custom'];
    const p1 = rt.scriptRun('previewScan', [mapAsCost]) as any;
    expect(p1.ok).toBe(false);
    expect(p1.problems).toEqual([
      {
        field: 'roles',
        message:
          'Column E ("MSRP/MAP") is a selling price (MSRP, MAP, retail), not what you pay. Choose the column with your cost as Cost (if this column is your cost, rename its header).',
      },
    ]);
    const descAsId = requestFrom(setup);
    descAsId.roles = ['sku', 'custom', 'identifier', 'cost', 'map', 'stock', 'custom'];
    const p2 = rt.scriptRun('previewScan', [descAsId]) as any;
    expect(p2.ok).toBe(false);
    expect(p2.problems[0].field).toBe('roles');
    expect(p2.problems[0].message).toMatch(/^Column C \("Description"\) holds words such as "[^"]+" in \d+ of 21 rows, not identifiers\./);
    await rt.stop();
  });
});

test('a header row that names no known column is only a guess: setup takes it and asks', async () => {
  const wb = new Workbook({ name: 'Lieferant', empty: true });
  const sh = wb.addSheet('Liste');
  [
    ['Artikel', 'Strichcode', 'Bezeichnung', 'Einkauf'],
    ['A-1', "'4006381333931", 'Stift', 1.2],
    ['A-2', "'4006381333948", 'Heft', 2.5],
  ].forEach((row, i) => row.forEach((v, j) => wb.writeInput(sh, i + 1, j + 1, v)));
  const rt = runtime(wb);
  connect(rt, env.proxy.url, env.svc.apiKey);
  const setup = rt.scriptRun('getScanSetup') as any;
  expect(setup.headerRow).toBe(1);
  expect(setup.headerQuestion).toBe(
    'Row 1 was taken as the column names, but none of its names says UPC, Cost or the like. If the names are in another row, enter its number below (0 if the list has none).',
  );
  await rt.stop();
});

describe('an order form: title rows, header on row 4, columns C to H (issue 27.1)', () => {
  function orderForm(r1: number, r2: number) {
    const wb = new Workbook({ name: 'Order form', empty: true });
    const sh = wb.addSheet('Order');
    orderFormRows().forEach((row, i) => row.forEach((v, j) => v !== '' && wb.writeInput(sh, i + 1, ORDER_FORM_FIRST_COLUMN + j, v)));
    const rt = runtime(wb);
    connect(rt, env.proxy.url, env.svc.apiKey);
    wb.activeSheet = sh;
    wb.activeRange = { sheet: sh, r1, c1: 3, r2, c2: 8 };
    return { wb, rt };
  }

  test.each([
    [5, 40],
    [6, 20],
    [12, 24],
  ])('C%i:H%i: names from row 4, its first row is a product that is sent', async (r1, r2) => {
    const { rt } = orderForm(r1, r2);
    const setup = rt.scriptRun('getScanSetup') as any;
    expect(setup).toEqual(expect.objectContaining({ headerRow: 4, headerQuestion: '', rowCount: r2 - r1 + 1 }));
    expect(setup.columns.map((c: any) => c.header)).toEqual(ORDER_FORM_HEADERS);
    expect(setup.columns.map((c: any) => c.role)).toEqual(['sku', 'custom', 'pack_quantity', 'identifier', 'cost', 'ignore']);
    const req = requestFrom(setup);
    req.roles[2] = 'custom'; // "Pack" holds words like "Twin Pack" here: the seller keeps it as information
    const started = rt.scriptRun('startScan', [req]) as any;
    expect(started.preview.counts.dataRows).toBe(r2 - r1 + 1);
    const up = (await uploads()).pop()!;
    const csv = parseMultipart(up.body, up.contentType).file.text.split('\r\n');
    expect(csv[0]).toBe('UPC,Price,Item,Description,Pack,Sheet row');
    expect(csv[1]).toMatch(new RegExp(`,${r1}$`)); // the first selected row is a product line, with its sheet row
    await rt.stop();
  });
});

describe('identifiers of several kinds in one column (issue 27.5)', () => {
  test('the ASIN on row 221 of the sample\'s "UPC" column is sent with the EAN, GTIN-14 and ISBN rows', async () => {
    const wb = await Workbook.fromXlsx(SAMPLE);
    const rt = runtime(wb);
    connect(rt, env.proxy.url, env.svc.apiKey);
    const setup = rt.scriptRun('getScanSetup') as any; // the whole sheet: header "UPC" on row 1
    expect(setup.headerRow).toBe(1);
    const started = rt.scriptRun('startScan', [requestFrom(setup)]) as any;
    expect(started.preview.skipped.map((s: any) => s.sheetRow)).not.toContain(221);
    const up = (await uploads()).pop()!;
    const lines = parseMultipart(up.body, up.contentType).file.text.split('\r\n');
    expect(lines.find((l: string) => l.endsWith(',221'))).toMatch(/^B033M82FJB,7\.40,SKU-10218,/);
    expect(lines.find((l: string) => l.endsWith(',199'))).toMatch(/^10695094441586,/);
    expect(lines.find((l: string) => l.endsWith(',210'))).toMatch(/^9781240955848,/);
    await rt.stop();
  });
});

describe('cells the upload would refuse (issue 26.6, 26.10)', () => {
  function hugeCells() {
    const wb = new Workbook({ name: 'Huge', empty: true });
    const sh = wb.addSheet('Huge');
    const rows: unknown[][] = [
      ['UPC', 'Cost', 'SKU', 'Description', 'Image'],
      ["'036000291452", 2.1, 'A-1', 'x'.repeat(50_000), 'https://img.example/' + 'p'.repeat(40_000)],
      ["'" + '7'.repeat(50_000), 3.2, 'A-2', 'Soap', ''],
      ["'4006381333931", 1.2, 'A-3', 'Pen', ''],
    ];
    rows.forEach((row, i) => row.forEach((v, j) => v !== '' && wb.writeInput(sh, i + 1, j + 1, v)));
    const rt = runtime(wb);
    connect(rt, env.proxy.url, env.svc.apiKey);
    return { wb, rt };
  }

  test('a 50,000-character description is sent cut (marked) with a warning naming sheet row and column; the scan starts', async () => {
    const { rt } = hugeCells();
    const setup = rt.scriptRun('getScanSetup') as any;
    const req = requestFrom(setup);
    req.roles = ['identifier', 'cost', 'sku', 'custom', 'image'];
    const p = rt.scriptRun('previewScan', [req]) as any;
    expect(p.ok).toBe(true);
    expect(p.warnings.map((w: any) => [w.column + w.sheetRow, w.message])).toEqual([
      ['E2', 'Row 2: Image (column E): The cell has 40,020 characters; the Scan Service takes 32,767. It is sent blank.'],
      [
        'D2',
        'Row 2: Description (column D): The cell has 50,000 characters; the Scan Service takes 32,767. It is sent cut to its first 32,767, marked as cut.',
      ],
    ]);
    const started = rt.scriptRun('startScan', [req]) as any;
    expect(started.progress.scanId).toBeGreaterThan(0);
    const up = (await uploads()).pop()!;
    const fields = parseCsv(parseMultipart(up.body, up.contentType).file.text)[1];
    // CSV order: identifier, cost, SKU, image, custom columns (Description), Sheet row.
    expect(fields[3]).toBe('');
    expect(fields[4].length).toBe(32_767);
    expect(fields[4].slice(-40)).toBe('x'.repeat(13) + ' … [cut: 50,000 characters]');
    await rt.stop();
  });

  test('a 50,000-digit identifier skips its row with a short message naming the row; the other rows go', async () => {
    const { rt } = hugeCells();
    const setup = rt.scriptRun('getScanSetup') as any;
    const req = requestFrom(setup);
    req.roles = ['identifier', 'cost', 'sku', 'ignore', 'ignore'];
    const p = rt.scriptRun('previewScan', [req]) as any;
    expect(p.counts).toEqual(expect.objectContaining({ send: 2, skipped: 1 }));
    const skip = p.skipped[0];
    expect(skip.sheetRow).toBe(3);
    expect(skip.message).toBe(`Row 3: "${'7'.repeat(60)}…" (50,000 characters) has 50000 digits; a UPC has 12, an EAN 13, a GTIN 14.`);
    expect(skip.identifier).toBe(`${'7'.repeat(60)}… (50,000 characters)`);
    expect(JSON.stringify(p).length).toBeLessThan(5_000);
    await rt.stop();
  });
});

test('a refusal of the upload that names a file line also names the sheet row (issue 26.6)', async () => {
  const wb = await Workbook.fromXlsx(SAMPLE);
  const rt = runtime(wb);
  connect(rt, env.proxy.url, env.svc.apiKey);
  const sh = wb.requireSheet('Price List');
  wb.activeSheet = sh;
  wb.activeRange = { sheet: sh, r1: 150, c1: 1, r2: 170, c2: 7 };
  const setup = rt.scriptRun('getScanSetup') as any;
  const message = 'Supplier 2026-11-21.csv: a cell on line 3 is longer than 32,767 characters, the most a cell may hold.';
  await env.proxy.faults([
    {
      method: 'POST',
      path: '^/api/v3/scans$',
      status: 422,
      times: 1,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    },
  ]);
  const why = thrown(() => rt.scriptRun('startScan', [requestFrom(setup)]));
  // Line 1 is the header; line 3 is the second row sent: sheet row 151.
  expect(why).toContain(message);
  expect(why).toMatch(/\(Line 3 of the upload is sheet row 151\.\)$/);
  await rt.stop();
});
