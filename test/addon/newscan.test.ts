/**
 * New scan, on the BUILT add-on in the local runtime against the local Scan Service (behind a
 * recording proxy, so the exact upload can be read): setup on messy sheets (suggestions, samples,
 * header row under title rows, default name in the spreadsheet's time zone), the preview with real
 * sheet row numbers, the exact CSV and attributes sent, every option reaching the service, the
 * running-scan record, refusals that send nothing, selections, and a 10,000-row sheet.
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import { connect, messyWorkbook, parseMultipart, runtime, SAMPLE, scanRequest, thrown, useServiceBehindProxy } from './scanflow-helpers';
import { decisionKey, RUNNING_KEY } from '../../src/store/keys';

const env = useServiceBehindProxy({ SCAN_SERVICE_SPEED: '600000' });

async function serviceScan(id: number): Promise<any> {
  const r = await fetch(`${env.svc.url}/api/v3/scans/${id}`, { headers: { Authorization: `Bearer ${env.svc.apiKey}` } });
  expect(r.status).toBe(200);
  return r.json();
}

async function uploads() {
  return (await env.proxy.seen()).filter((s) => s.method === 'POST' && s.path === '/api/v3/scans');
}

/** The shipped sample's columns with the roles suggested for them ([header, role]). */
const SAMPLE_COLUMNS = [
  ['Item Code', 'sku'],
  ['UPC', 'identifier'],
  ['Description', 'custom'],
  ['Unit Cost', 'cost'],
  ['MSRP/MAP', 'map'],
  ['Qty Avail', 'stock'],
  ['Case Pack', 'custom'],
];

function requestFrom(setup: any, options: Record<string, unknown> = {}) {
  return {
    ...scanRequest(setup, { marketplace: setup.defaultMarketplace, name: setup.defaultName, ...options }),
    headerRow: setup.headerRow,
  };
}

function messy() {
  const wb = messyWorkbook();
  wb.timeZone = 'Asia/Tokyo'; // 2026-11-20 23:30 UTC is already the 21st there
  const rt = runtime(wb);
  connect(rt, env.proxy.url, env.svc.apiKey);
  return { wb, rt };
}

describe('a messy sheet', () => {
  test('setup finds the header under title rows and suggests roles with samples as shown; default name uses the spreadsheet time zone', async () => {
    const { rt } = messy();
    const setup = rt.scriptRun('getScanSetup') as any;
    expect(setup).toEqual(
      expect.objectContaining({
        sheetName: 'Supplier',
        rangeA1: 'A1:E12',
        selection: false,
        headerRow: 4,
        rowCount: 8,
        defaultName: 'Supplier 2026-11-21',
        defaultMarketplace: 'US',
        running: [],
      }),
    );
    expect(setup.columns).toEqual([
      { index: 0, letter: 'A', header: 'UPC', sample: '36000291452', role: 'identifier' },
      { index: 1, letter: 'B', header: 'Item #', sample: 'A-1', role: 'sku' },
      { index: 2, letter: 'C', header: 'Description', sample: 'Tissue, 2-ply', role: 'custom' },
      { index: 3, letter: 'D', header: 'Unit Cost', sample: '$1,299.00', role: 'cost' },
      { index: 4, letter: 'E', header: 'MAP', sample: '1499', role: 'map' },
    ]);
    expect(setup.roles.map((r: any) => r.role)).toEqual([
      'identifier',
      'cost',
      'sku',
      'map',
      'stock',
      'pack_quantity',
      'image',
      'discount',
      'custom',
      'ignore',
    ]);
    // Setup reads the values and display values in one batch each.
    expect(rt.executions[rt.executions.length - 1].counters.sheetReadCalls).toBeLessThanOrEqual(2);
    await rt.stop();
  });

  test('preview: rows that go, skipped with reasons on their real sheet rows, repairs, duplicates, warnings', async () => {
    const { rt } = messy();
    const setup = rt.scriptRun('getScanSetup') as any;
    const p = rt.scriptRun('previewScan', [requestFrom(setup)]) as any;
    expect(p.ok).toBe(true);
    expect(p.counts).toEqual({
      dataRows: 8,
      send: 4,
      skipped: 4,
      repairedRows: 4,
      duplicateRows: 2,
      warnings: 2,
      bySkipReason: { 'scientific-notation': 1, 'blank-row': 1, 'no-identifier': 1, 'unusable-cost': 1 },
    });
    expect(p.skipped.map((s: any) => [s.sheetRow, s.reason])).toEqual([
      [6, 'scientific-notation'],
      [7, 'blank-row'],
      [10, 'no-identifier'],
      [11, 'unusable-cost'],
    ]);
    expect(p.skipped[0].message).toMatch(/^Row 6: "5\.01234E\+12" was stored in scientific notation/);
    expect(p.skipped[3].message).toBe('Row 11: Cost "call" is not an amount.');
    expect(p.repaired.map((r: any) => [r.sheetRow, r.column, r.before, r.after])).toEqual([
      [5, 'A', '36000291452', '036000291452'],
      [8, 'D', '1.299,00 €', '1299.00'],
      [9, 'A', '12345678905', '012345678905'],
      [9, 'D', '$1,299.00', '1299.00'],
      [12, 'A', '36000291452', '036000291452'],
    ]);
    expect(p.duplicates).toEqual([{ identifier: '036000291452', sheetRows: [5, 12] }]);
    // A euro cost on a US scan is said, naming its sheet row (issue 32 item 10), not read silently as dollars.
    expect(p.warnings.map((w: any) => w.message)).toEqual([
      'Row 8: Cost "1.299,00 €" is in EUR; the US marketplace sells in USD. It is sent as that amount in USD (the add-on converts no currency): convert it first if it is a EUR price.',
      'Row 9: MAP "n/a" is not an amount. It is sent blank.',
    ]);
    expect(p.csvHeader).toEqual(['UPC', 'Unit Cost', 'Item #', 'MAP', 'Description', 'Sheet row']);
    await rt.stop();
  });

  test('startScan uploads exactly the prepared CSV and the attributes as multipart, with every option reaching the service', async () => {
    const { rt } = messy();
    const setup = rt.scriptRun('getScanSetup') as any;
    const options = {
      name: 'ACME, "March" list',
      marketplace: 'US',
      supplierDiscount: '5%',
      prepCost: '$0.50',
      multipackPrepCost: { enabled: true, firstN: 2, costForFirstN: '0.25', costForRest: 0.1 },
      multipackOverride: true,
      multipackOverrideQuantity: '3',
      pullHistoricalData: true,
      // The add-on's own (issue 24): kept in the document for the import, never uploaded (the attributes below are exact).
      monthsOfCover: '3',
      shareRule: 'even',
      targetRoi: '40 %',
      maxDiscount: '15',
    };
    const started = rt.scriptRun('startScan', [requestFrom(setup, options)]) as any;
    expect(started.preview.counts.send).toBe(4);
    expect(started.progress).toEqual(expect.objectContaining({ name: 'ACME, "March" list', marketplace: 'US', lines: 4 }));
    expect(['queued', 'running', 'success']).toContain(started.progress.status);

    const ups = await uploads();
    expect(ups).toHaveLength(1);
    expect(ups[0].contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(ups[0].authorization).toBe(`Bearer ${env.svc.apiKey}`);
    const parts = parseMultipart(ups[0].body, ups[0].contentType);
    expect(parts.file.filename).toBe('ACME, March list.csv');
    expect(parts.file.contentType).toBe('text/csv');
    expect(parts.file.text).toBe(
      [
        'UPC,Unit Cost,Item #,MAP,Description,Sheet row',
        '036000291452,1299.00,A-1,1499.00,"Tissue, 2-ply",5',
        '4006381333931,1299.00,A-3,,"=HYPERLINK(""http://evil"",""x"")",8',
        '012345678905,1299.00,A-4,,+1 555 0100,9',
        '036000291452,12.50,A-7,,"Dup, other pack",12',
        '',
      ].join('\r\n'),
    );
    const attributes = {
      mapping: { id: 0, cost: 1, custom_columns: [4, 5], supplier_sku: 2, map: 3 },
      options: {
        marketplace_id: 'US',
        name: 'ACME, "March" list',
        header: true,
        discount_supplier: 500,
        prep_cost: 50,
        multipack_prep_cost: { enabled: true, firstN: 2, costForFirstN: 25, costForRest: 10 },
        multipack_override: true,
        multipack_override_quantity: 3,
        pull_historical_data: true,
        custom_columns: ['Description', 'Sheet row'],
      },
    };
    expect(JSON.parse(parts.attributes.text)).toEqual(attributes);

    // What the service stored.
    const scan = await serviceScan(started.progress.scanId);
    expect(scan).toEqual(expect.objectContaining({ name: 'ACME, "March" list', marketplace: 'US', lines: 4, source_type: 'Upload' }));
    expect(scan.options).toEqual(attributes.options);
    expect(scan.mapping).toEqual(attributes.mapping);

    // Recorded as running: ids only, in the document properties.
    const record = JSON.parse(rt.properties.document!.get(RUNNING_KEY)!);
    expect(Object.keys(record)).toEqual([String(started.progress.scanId)]);
    expect(Object.keys(record[started.progress.scanId]).sort()).toEqual(['t', 'u']);
    expect(rt.properties.document!.get(RUNNING_KEY)).not.toContain('@');
    // The seller's decision options, and what was sent (the import labels columns by it), for this scan's import.
    expect(JSON.parse(rt.properties.document!.get(decisionKey(started.progress.scanId))!)).toEqual({
      monthsOfCover: 3,
      shareRule: 'even',
      targetRoiBps: 4000,
      maxDiscountBps: 1500,
      // The Pictures choice (issue 36; on by default), for the import that may run later from a trigger.
      pictures: true,
      sent: { mapping: attributes.mapping, custom: attributes.options.custom_columns, marketplace: 'US', lines: scan.lines },
    });
    // The hourly import trigger exists (one per user and document, also after a second start).
    rt.scriptRun('startScan', [requestFrom(setup, { ...options, name: 'Second' })]);
    const triggers = rt.triggers.records.filter((t) => t.handler === 'importFinishedScans');
    expect(triggers.map((t) => [t.user, t.everyMs])).toEqual([['owner@example.com', 3600_000]]);
    await rt.stop();
  });

  test('a selection is read as it is, also after the user clicked elsewhere', async () => {
    const { wb, rt } = messy();
    const sh = wb.requireSheet('Supplier');
    wb.activeSheet = sh;
    wb.activeRange = { sheet: sh, r1: 4, c1: 1, r2: 9, c2: 4 }; // A4:D9
    const setup = rt.scriptRun('getScanSetup') as any;
    expect(setup).toEqual(expect.objectContaining({ rangeA1: 'A4:D9', selection: true, headerRow: 4, rowCount: 5 }));
    expect(setup.columns.map((c: any) => c.header)).toEqual(['UPC', 'Item #', 'Description', 'Unit Cost']);
    wb.activeRange = { sheet: sh, r1: 1, c1: 1, r2: 1, c2: 1 };
    const p = rt.scriptRun('previewScan', [requestFrom(setup)]) as any;
    expect(p.counts.send).toBe(3);
    expect(p.skipped.map((s: any) => s.sheetRow)).toEqual([6, 7]);
    await rt.stop();
  });

  test('a selection of whole columns is cut at the last filled row and column', async () => {
    const { wb, rt } = messy();
    const sh = wb.requireSheet('Supplier');
    wb.activeSheet = sh;
    wb.activeRange = { sheet: sh, r1: 1, c1: 1, r2: 1000, c2: 26 }; // A1:Z1000
    const setup = rt.scriptRun('getScanSetup') as any;
    expect(setup).toEqual(expect.objectContaining({ rangeA1: 'A1:E12', selection: true, headerRow: 4, rowCount: 8 }));
    expect((rt.scriptRun('previewScan', [requestFrom(setup)]) as any).counts.send).toBe(4);
    wb.activeRange = { sheet: sh, r1: 20, c1: 1, r2: 30, c2: 3 };
    expect(thrown(() => rt.scriptRun('getScanSetup'))).toBe(
      'The selected cells are empty. Select the price list (with its header row), or one cell to scan the whole sheet.',
    );
    await rt.stop();
  });
});

test('a sheet of bare data (no header row): headerRow 0, columns by letter, row 1 is data', async () => {
  const wb = new Workbook({ name: 'Bare', empty: true });
  wb.addSheet('Bare');
  [
    ["'036000291452", 2.5, 'Socks'],
    ["'012345678905", 3, 'Cap'],
    ["'4006381333931", 4, 'Pen'],
  ].forEach((row, i) => row.forEach((v, j) => wb.type('Bare', wb.a1(i + 1, j + 1), v)));
  const rt = runtime(wb);
  connect(rt, env.proxy.url, env.svc.apiKey);
  const setup = rt.scriptRun('getScanSetup') as any;
  expect(setup).toEqual(expect.objectContaining({ headerRow: 0, rowCount: 3 }));
  expect(setup.columns.map((c: any) => [c.header, c.sample])).toEqual([
    ['Column A', '036000291452'],
    ['Column B', '2.5'],
    ['Column C', 'Socks'],
  ]);
  const req = { ...requestFrom(setup), roles: ['identifier', 'cost', 'custom'] };
  const started = rt.scriptRun('startScan', [req]) as any;
  const parts = parseMultipart((await uploads())[0].body, (await uploads())[0].contentType);
  expect(parts.file.text).toBe(
    'Column A,Column B,Column C,Sheet row\r\n036000291452,2.50,Socks,1\r\n012345678905,3.00,Cap,2\r\n4006381333931,4.00,Pen,3\r\n',
  );
  expect(started.progress.lines).toBe(3);
  await rt.stop();
});

describe('refusals send nothing', () => {
  test('wrong options: every problem named, no upload, no record', async () => {
    const { rt } = messy();
    const setup = rt.scriptRun('getScanSetup') as any;
    const req = requestFrom(setup, { name: '  ', supplierDiscount: 'lots', multipackOverride: true, multipackOverrideQuantity: 0 });
    const preview = rt.scriptRun('previewScan', [req]) as any;
    expect(preview.ok).toBe(false);
    expect(preview.problems.map((p: any) => p.field)).toEqual(['name', 'supplierDiscount', 'multipackOverrideQuantity']);
    expect(thrown(() => rt.scriptRun('startScan', [req]))).toBe(
      'The scan was not started: Give the scan a name. Supplier discount must be a percent from 0 to below 100. Multipack override: the quantity must be a whole number of 1 or more.',
    );
    expect(await uploads()).toHaveLength(0);
    expect(rt.properties.document!.get(RUNNING_KEY)).toBeNull();
    expect(rt.triggers.records).toEqual([]);
    await rt.stop();
  });

  test('wrong decision options (months of cover, share rule, target ROI, largest discount): named with the others, nothing sent', async () => {
    const { rt } = messy();
    const setup = rt.scriptRun('getScanSetup') as any;
    const req = requestFrom(setup, {
      supplierDiscount: 'lots',
      monthsOfCover: 'two',
      shareRule: 'loudest',
      targetRoi: '-5',
      maxDiscount: '0',
    });
    const preview = rt.scriptRun('previewScan', [req]) as any;
    expect(preview.ok).toBe(false);
    expect(preview.problems.map((p: any) => p.field)).toEqual([
      'supplierDiscount',
      'monthsOfCover',
      'shareRule',
      'targetRoi',
      'maxDiscount',
    ]);
    expect(thrown(() => rt.scriptRun('startScan', [req]))).toContain('Months of cover must be a whole number from 1 to 24.');
    expect(await uploads()).toHaveLength(0);
    await rt.stop();
  });

  test('no cost column, or two identifier columns: says which', async () => {
    const { rt } = messy();
    const setup = rt.scriptRun('getScanSetup') as any;
    const noCost = requestFrom(setup);
    noCost.roles[3] = 'ignore';
    // Issue 27.6: the preview answers with the problem (shown in its box) instead of failing.
    const preview = rt.scriptRun('previewScan', [noCost]) as any;
    expect(preview).toEqual(
      expect.objectContaining({ ok: false, problems: [{ field: 'roles', message: 'Choose the column with the cost.' }] }),
    );
    const twoIds = requestFrom(setup);
    twoIds.roles[1] = 'identifier';
    expect(thrown(() => rt.scriptRun('startScan', [twoIds]))).toBe(
      'The scan was not started: Two columns are set as Identifier (A and B).',
    );
    await rt.stop();
  });

  test('no identifier column AND a discount of "ten": the preview and the refusal name both problems at once (issue 27.6)', async () => {
    const { rt } = messy();
    const setup = rt.scriptRun('getScanSetup') as any;
    const req = requestFrom(setup, { supplierDiscount: 'ten' });
    req.roles = req.roles.map((r: string) => (r === 'identifier' ? 'ignore' : r));
    const preview = rt.scriptRun('previewScan', [req]) as any;
    expect(preview.ok).toBe(false);
    expect(preview.problems).toEqual([
      { field: 'roles', message: 'Choose the column with the product identifiers (UPC, EAN, ASIN...).' },
      { field: 'supplierDiscount', message: 'Supplier discount must be a percent from 0 to below 100.' },
    ]);
    expect(thrown(() => rt.scriptRun('startScan', [req]))).toBe(
      'The scan was not started: Choose the column with the product identifiers (UPC, EAN, ASIN...). Supplier discount must be a percent from 0 to below 100.',
    );
    expect(await uploads()).toHaveLength(0);
    await rt.stop();
  });

  test('nothing usable: refused with the reason', async () => {
    const wb = new Workbook({ name: 'Bad', empty: true });
    wb.addSheet('Bad');
    [
      ['UPC', 'Cost'],
      ['12345', '1.00'],
      ['', '2.00'],
      ['036000291452', 'call'],
    ].forEach((row, i) => row.forEach((v, j) => v && wb.type('Bad', wb.a1(i + 1, j + 1), v)));
    const rt = runtime(wb);
    connect(rt, env.proxy.url, env.svc.apiKey);
    const setup = rt.scriptRun('getScanSetup') as any;
    expect(thrown(() => rt.scriptRun('startScan', [requestFrom(setup)]))).toBe(
      'The scan was not started: No row can be sent: every row was skipped (see the reasons).',
    );
    expect(await uploads()).toHaveLength(0);
    await rt.stop();
  });

  test('an empty sheet: setup says so', async () => {
    const wb = new Workbook({ name: 'Empty' });
    const rt = runtime(wb);
    expect(thrown(() => rt.scriptRun('getScanSetup'))).toBe(
      'The sheet "Sheet1" is empty. Open the sheet with the price list and try again.',
    );
    await rt.stop();
  });

  test('the sheet changed shape since the form opened: asks to reopen', async () => {
    const { wb, rt } = messy();
    const setup = rt.scriptRun('getScanSetup') as any;
    wb.type('Supplier', 'F4', 'Stock');
    expect(thrown(() => rt.scriptRun('previewScan', [requestFrom(setup)]))).toBe(
      'The sheet changed since the form was opened (6 columns now, 5 in the form). Open Scan this sheet again.',
    );
    await rt.stop();
  });
});

describe('the shipped sample', () => {
  test('suggestions, preview counts and the messy rows by their sheet rows', async () => {
    const wb = await Workbook.fromXlsx(SAMPLE);
    const rt = runtime(wb);
    connect(rt, env.proxy.url, env.svc.apiKey);
    const setup = rt.scriptRun('getScanSetup') as any;
    expect(setup).toEqual(expect.objectContaining({ sheetName: 'Price List', headerRow: 1, rowCount: 300 }));
    // Case Pack next to a per-unit cost is informational (samples/README.md): custom, not pack quantity.
    expect(setup.columns.map((c: any) => [c.header, c.role])).toEqual(SAMPLE_COLUMNS);
    const p = rt.scriptRun('previewScan', [requestFrom(setup)]) as any;
    expect(p.counts.send + p.counts.skipped).toBe(300);
    const skipped = Object.fromEntries(p.skipped.map((s: any) => [s.sheetRow, s.reason]));
    // Lines of samples/README.md "Messy rows" are sheet rows (line 1 = header = row 1).
    expect(skipped).toEqual(
      expect.objectContaining({
        23: 'scientific-notation',
        67: 'blank-row',
        78: 'blank-row',
        89: 'no-identifier',
        100: 'unusable-cost',
        111: 'unusable-cost',
        166: 'invalid-identifier',
        276: 'unusable-cost',
      }),
    );
    const repaired = Object.fromEntries(p.repaired.filter((r: any) => r.role === 'cost').map((r: any) => [r.sheetRow, r.after]));
    expect(repaired).toEqual(expect.objectContaining({ 34: '1299.00', 45: '1299.00', 287: '24.00' }));
    expect(p.repaired.find((r: any) => r.sheetRow === 12)).toEqual(
      expect.objectContaining({ column: 'B', before: '2943921572', after: '002943921572' }),
    );
    expect(p.duplicates.some((d: any) => d.sheetRows.includes(122))).toBe(true);
    await rt.stop();
  });
});

describe('a selection below the header row', () => {
  /** The shipped sample with its data rows A10:G20 selected. */
  async function sampleWithA10G20Selected() {
    const wb = await Workbook.fromXlsx(SAMPLE);
    const rt = runtime(wb);
    connect(rt, env.proxy.url, env.svc.apiKey);
    const sh = wb.requireSheet('Price List');
    wb.activeSheet = sh;
    wb.activeRange = { sheet: sh, r1: 10, c1: 1, r2: 20, c2: 7 };
    return { wb, rt };
  }

  test('data rows A10:G20 of the sample take their column names from the sheet header (row 1), and every selected row is data', async () => {
    const { rt } = await sampleWithA10G20Selected();
    const setup = rt.scriptRun('getScanSetup') as any;
    expect(setup).toEqual(expect.objectContaining({ rangeA1: 'A10:G20', selection: true, headerRow: 1, rowCount: 11 }));
    expect(setup.columns.map((c: any) => [c.header, c.role])).toEqual(SAMPLE_COLUMNS);
    // Samples come from the selection itself.
    expect(setup.columns[0].sample).toBe('SKU-10009');
    const p = rt.scriptRun('previewScan', [requestFrom(setup)]) as any;
    expect(p.counts.dataRows).toBe(11);
    expect(p.counts.send + p.counts.skipped).toBe(11);
    expect(p.csvHeader).toEqual(['UPC', 'Unit Cost', 'Item Code', 'MSRP/MAP', 'Qty Avail', 'Description', 'Case Pack', 'Sheet row']);
    const started = rt.scriptRun('startScan', [requestFrom(setup)]) as any;
    const up = (await uploads())[0];
    const csv = parseMultipart(up.body, up.contentType).file.text.split('\r\n');
    // Row 10 (SKU-10009, cost 8.46) is the first data line, with its real sheet row number.
    expect(csv[1]).toMatch(/^002672411450,8\.46,SKU-10009,.*,10$/);
    expect(csv.filter(Boolean)).toHaveLength(1 + started.preview.counts.send);
    await rt.stop();
  });

  test('the user says which row is the header, or that there is none', async () => {
    const { rt } = await sampleWithA10G20Selected();
    const first = rt.scriptRun('getScanSetup') as any;
    const again = { sheetName: first.sheetName, rangeA1: first.rangeA1, selection: first.selection };
    const none = rt.scriptRun('getScanSetup', [{ ...again, headerRow: 0 }]) as any;
    expect(none).toEqual(expect.objectContaining({ rangeA1: 'A10:G20', headerRow: 0, rowCount: 11 }));
    expect(none.columns.map((c: any) => c.header)).toEqual([
      'Column A',
      'Column B',
      'Column C',
      'Column D',
      'Column E',
      'Column F',
      'Column G',
    ]);
    const req = { ...requestFrom(none), roles: ['sku', 'identifier', 'custom', 'cost', 'ignore', 'ignore', 'ignore'] };
    const p = rt.scriptRun('previewScan', [req]) as any;
    expect(p.counts.dataRows).toBe(11);
    // A header row inside the selection: the rows above it are not data.
    const inside = rt.scriptRun('getScanSetup', [{ ...again, headerRow: 12 }]) as any;
    expect(inside).toEqual(expect.objectContaining({ headerRow: 12, rowCount: 8 }));
    expect(inside.columns[0].header).toBe('SKU-10011');
    expect(thrown(() => rt.scriptRun('getScanSetup', [{ ...again, headerRow: 30 }]))).toBe(
      'Row 30 is below the rows read (A10:G20): choose a header row at or above the list, or 0 for none.',
    );
    await rt.stop();
  });
});

describe('a 10,000-row sheet', () => {
  test('is read with one values and one display-values read and sent whole in one upload', async () => {
    const wb = new Workbook({ name: 'Big', empty: true });
    const sh = wb.addSheet('Big', undefined, 10_001, 4);
    const rows: unknown[][] = [['UPC', 'SKU', 'Description', 'Cost']];
    for (let i = 0; i < 10_000; i++) {
      const body = String(100000000000 + i * 7).slice(0, 11);
      let sum = 0;
      for (let k = 0; k < 11; k++) sum += Number(body[k]) * (k % 2 === 0 ? 3 : 1);
      rows.push([Number(body + ((10 - (sum % 10)) % 10)), 'S' + i, 'Item ' + i, 1 + (i % 50) / 4]);
    }
    rows.forEach((row, r) => row.forEach((v, c) => wb.writeInput(sh, r + 1, c + 1, v)));
    const rt = runtime(wb);
    connect(rt, env.proxy.url, env.svc.apiKey);
    const setup = rt.scriptRun('getScanSetup') as any;
    expect(setup.rowCount).toBe(10_000);
    const started = rt.scriptRun('startScan', [requestFrom(setup)]) as any;
    expect(started.preview.counts).toEqual(expect.objectContaining({ send: 10_000, skipped: 0 }));
    const exec = rt.executions[rt.executions.length - 1];
    expect(exec.counters.sheetReadCalls).toBeLessThanOrEqual(2);
    expect(exec.counters.urlFetchRequests).toBe(1);
    const scan = await serviceScan(started.progress.scanId);
    expect(scan.lines).toBe(10_000);
    await rt.stop();
  });
});
