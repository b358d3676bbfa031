/**
 * Settings > Remembered suppliers: this user's supplier lists New scan fills in (in this spreadsheet),
 * each with Forget. Loaded when opened (most visits to Settings never need it).
 */
import type { RememberedSupplier } from '../src/app/protocol';
import { fail } from './app';
import { act, fill, h } from './dom';
import { call } from './server';

export function suppliersSection(none: string): HTMLElement {
  const list = h('div', { 'aria-live': 'polite' }, h('p', 'muted small', 'Loading…'));
  const show = (items: RememberedSupplier[]) =>
    fill(
      list,
      items.length
        ? h(
            'ul',
            'suppliers',
            ...items.map((s) => {
              const forget = act('Forget', () => call('forgetSupplier', s.id).then(show, fail));
              forget.setAttribute('aria-label', 'Forget ' + s.sheetName + ' (' + s.scannedOn + ')');
              return h('li', null, h('span', 'small', s.sheetName + ' · ' + s.scannedOn + ' · ' + s.columns + ' '), forget);
            }),
          )
        : h('p', 'muted small', none),
    );
  const box = h('details', null, h('summary', null, 'Remembered suppliers'), list);
  let loaded = false;
  box.addEventListener('toggle', () => {
    if (!box.open || loaded) return;
    loaded = true;
    call('getRememberedSuppliers').then(show, (e) => {
      loaded = false;
      fill(list);
      fail(e);
    });
  });
  return box;
}
