/**
 * Convert selected column: the plain-values alternative to the identifier formulas for columns too
 * long for one 30-second formula call. convertSelectedColumn is called again while the server says
 * it is not done (it checkpoints before the 6-minute limit), as for imports.
 */
import type { ColumnConversionProgress, ColumnConversionRequest } from '../src/app/protocol';
import { fail, register } from './app';
import { live, btnRow, act, checkbox, field, fill, h, select } from './dom';
import { num } from './format';
import { call, untilDone } from './server';

export const CONVERSIONS: Array<[string, string]> = [
  ['', 'Chosen from the column'],
  ['ASIN_FROM_UPC', 'UPC → ASIN'],
  ['ASIN_FROM_EAN', 'EAN → ASIN'],
  ['ASIN_FROM_ISBN', 'ISBN → ASIN'],
  ['UPC_FROM_ASIN', 'ASIN → UPC'],
  ['EAN_FROM_ASIN', 'ASIN → EAN'],
  ['ISBN_FROM_ASIN', 'ASIN → ISBN'],
  ['GTIN_FROM_ASIN', 'ASIN → GTIN'],
  ['JAN_FROM_ASIN', 'ASIN → JAN'],
  ['IDENTIFIERS_FROM_ASIN', 'ASIN → all identifiers'],
];

/** Safety net: a conversion that never says done stops after this many calls. */
const MAX_CALLS = 1000;

function render(root: HTMLElement): void {
  const conversion = select(CONVERSIONS, '', { name: 'conversion' });
  const market = select([['', 'My default marketplace']], '', { name: 'marketplace' });
  const matches = select(
    [
      ['first', 'The first ASIN'],
      ['all', 'All of them, in one cell'],
    ],
    'first',
    { name: 'matches' },
  );
  const restart = checkbox('Start over with the current selection (drops an unfinished conversion)', false, { name: 'restart' });
  const status = live('convert-status');
  // Marketplace names and the introduction come with the settings; the default marketplace works without them.
  const intro = h('p', 'muted small');
  call('getSettings').then((s) => {
    fill(intro, s.help.convert);
    for (const m of s.marketplaces) market.appendChild(h('option', { value: m.code }, m.code + ' – ' + m.name));
  }, fail);

  const line = (p: ColumnConversionProgress): string =>
    p.done ? p.message : 'Converting ' + p.sourceA1 + ': ' + num(p.rowsDone) + ' of ' + num(p.totalRows) + ' rows into ' + p.targetA1 + '…';
  const go = act(
    'Convert selected column',
    async () => {
      const request: ColumnConversionRequest = { matches: matches.value as 'first' | 'all' };
      if (conversion.value) request.conversion = conversion.value;
      if (market.value) request.marketplace = market.value;
      fill(status, 'Converting…');
      try {
        // Only the first call may start over; the next ones continue what it started.
        const p = await untilDone(
          MAX_CALLS,
          (i) => call('convertSelectedColumn', { ...request, restart: !i && restart.input.checked }),
          (p) => fill(status, line(p)),
        );
        if (!p) fill(status, h('span', 'error', 'The conversion did not finish after ' + MAX_CALLS + ' steps. Click again to continue.'));
      } catch (e) {
        fill(status);
        fail(e);
      }
    },
    'action',
  );

  fill(
    root,
    h('h2', null, 'Convert a column'),
    intro,
    field('Conversion', conversion),
    field('Marketplace', market),
    field('When one identifier has several ASINs, show', matches),
    h('div', 'form-group', restart.row),
    btnRow(go),
    status,
  );
}

register('convert', render);
