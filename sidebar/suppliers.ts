/**
 * Settings > Remembered suppliers: this user's supplier lists New scan fills in (in this spreadsheet),
 * each with Forget. Loaded when opened (most visits to Settings never need it).
 */
import type { RememberedSupplier } from '../src/app/protocol';
import { fail } from './app';
import { act, fill, h, select } from './dom';
import { call } from './server';

function named(b: HTMLButtonElement, label: string): HTMLButtonElement {
  b.setAttribute('aria-label', label);
  return b;
}

export function suppliersSection(none: string): HTMLElement {
  const list = h('div', { 'aria-live': 'polite' }, h('p', 'muted small', 'Loading…'));
  const show = (items: RememberedSupplier[]): void =>
    fill(
      list,
      items.length
        ? h(
            'ul',
            'suppliers',
            ...items.map((s) => {
              const forget = act('Forget', () => call('forgetSupplier', s.id).then(show, fail));
              forget.setAttribute('aria-label', 'Forget ' + s.sheetName + ' (' + s.scannedOn + ')');
              // Re-scan schedule: one select + Save; Pause in one click (texts from the server).
              const reload = (): Promise<void> => call('getRememberedSuppliers').then(show);
              const when = select(s.choices, s.rule, { 'aria-label': 'When to scan ' + s.sheetName + ' again' });
              return h(
                'li',
                null,
                h('span', 'small', s.sheetName + ' · ' + s.scannedOn + ' · ' + s.columns + ' '),
                forget,
                when,
                named(
                  act('Save', () => call('saveSchedule', s.id, when.value).then(reload, fail)),
                  'Save when to scan ' + s.sheetName,
                ),
                s.rule
                  ? named(
                      act('Pause', () => call('pauseSchedule', s.id).then(reload, fail)),
                      'Pause scanning ' + s.sheetName,
                    )
                  : null,
                s.schedule ? h('p', 'small', s.schedule) : null,
              );
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
