/**
 * Settings > Remembered suppliers: this user's supplier lists New scan fills in (in this spreadsheet),
 * each with what its next scan and re-scans use (roles, Pictures, columns), Forget (the server's
 * words under the list say what it resets) and its re-scan schedule. Loaded when opened (most visits
 * to Settings never need it). The same schedule control is on a finished scan's card ("Scan this
 * list again").
 */
import type { DueScan, RememberedSupplier, ScanProgress } from '../src/app/protocol';
import { fail } from './app';
import { act, checkbox, fill, h, select } from './dom';
import { call } from './server';

function named(b: HTMLButtonElement, label: string): HTMLButtonElement {
  b.setAttribute('aria-label', label);
  return b;
}

/** Loads `load` into a <details> the first time it is opened (again after a failure). */
function lazy(title: string, out: HTMLElement, load: () => Promise<unknown>): HTMLElement {
  const box = h('details', null, h('summary', null, title), out);
  let loaded = false;
  box.addEventListener('toggle', () => {
    if (!box.open || loaded) return;
    loaded = true;
    load().catch((e) => {
      loaded = false;
      fail(e);
    });
  });
  return box;
}

/**
 * A supplier's re-scan schedule: one select + the email opt-in + Save; Pause and Remove in one click;
 * its line (next run, cost, last summary: texts from the server). `reload` redraws after a change.
 */
function scheduleControl(s: RememberedSupplier, reload: () => Promise<unknown>): Array<HTMLElement | null> {
  const when = select(s.choices, s.rule, { 'aria-label': 'When to scan ' + s.sheetName + ' again' });
  const mail = checkbox(s.emailLabel, s.email);
  const run = (fn: 'pauseSchedule' | 'removeSchedule', label: string) =>
    named(
      act(label, () => call(fn, s.id).then(reload, fail)),
      label + ' scanning ' + s.sheetName,
    );
  return [
    when,
    mail.row,
    named(
      act('Save', () => call('saveSchedule', s.id, when.value, s.scanId, mail.input.checked).then(reload, fail)),
      'Save when to scan ' + s.sheetName,
    ),
    s.rule ? run('pauseSchedule', 'Pause') : null,
    s.rule ? run('removeSchedule', 'Remove') : null,
    s.schedule ? h('p', 'small', s.schedule) : null,
  ];
}

export function suppliersSection(none: string, forgetNote: string): HTMLElement {
  const list = h('div', { 'aria-live': 'polite' }, h('p', 'muted small', 'Loading…'));
  const note = h('div', { class: 'hint', id: 'forget-supplier-note' }, forgetNote);
  const load = (): Promise<void> => call('getRememberedSuppliers').then(show);
  const show = (items: RememberedSupplier[]): void =>
    fill(
      list,
      items.length
        ? h(
            'ul',
            'suppliers',
            ...items.map((s) => {
              const forget = named(
                act('Forget', () => call('forgetSupplier', s.id).then(show, fail)),
                'Forget ' + s.sheetName + ' (' + s.scannedOn + ')',
              );
              forget.setAttribute('aria-describedby', note.id);
              return h(
                'li',
                null,
                h('span', 'small', s.sheetName + ' · ' + s.scannedOn + ' · ' + s.columns + ' '),
                forget,
                h('p', 'small', s.uses.join(' · ')),
                ...scheduleControl(s, load),
              );
            }),
          )
        : h('p', 'muted small', none),
      items.length ? note : null,
    );
  return lazy('Remembered suppliers', list, load);
}

/** A finished scan's card: its list's schedule, as in Settings (loaded when opened). */
export function scheduleBox(scanId: number): HTMLElement {
  const out = h('div', { 'aria-live': 'polite' });
  const load = (): Promise<void> =>
    call('getRememberedSuppliers').then((items) => {
      const s = items.find((x) => x.scanId === scanId);
      fill(out, ...(s ? scheduleControl(s, load) : [h('p', 'muted small', 'Only the latest scan of a list can be scheduled.')]));
    });
  return lazy('Scan this list again', out, load);
}

/**
 * Scheduled runs due that the hourly trigger did not send (no document here, or it did not run): a
 * question each with "Send it now" (a paid scan: only on a click). The server claims the slot as the
 * trigger does, so a run is never sent twice. `started`: shows the sent scan.
 */
export function dueScansBox(started: (p: ScanProgress) => void): HTMLElement {
  const box = h('div', { 'aria-live': 'polite' });
  const offer = (d: DueScan): HTMLElement => {
    const row = h('p', 'small', d.question + ' ');
    row.append(
      named(
        act('Send it now', () =>
          call('sendDueScan', d.id, d.slot).then((r) => {
            fill(row, r.message);
            if (r.progress) started(r.progress);
          }, fail),
        ),
        'Send it now: ' + d.question,
      ),
    );
    return row;
  };
  // Not offered when the call fails (a daily quota, say): the schedule lines still say what is due.
  call('getDueScans').then(
    (list) => fill(box, ...list.map(offer)),
    () => undefined,
  );
  return box;
}
