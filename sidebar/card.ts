/**
 * One scan as a card: name, status and counts; while it runs a progress bar polled from the server
 * and a Cancel button; when done its results (import with filters); in the history also downloads,
 * export and delete (after a confirm step).
 */
import type { DownloadFormat, ScanProgress } from '../src/app/protocol';
import { fail, message } from './app';
import { cardHead, btnRow, act, button, fill, h, link, select, confirmIn, type Child } from './dom';
import { countsLine, isActive, percent, progressLine, statusLabel, when } from './format';
import { percentFixed } from '../contract/numbers';
import { resultsPanel } from './results';
import { call } from './server';
import { scheduleBox } from './suppliers';

/** How often an open sidebar asks for the progress of a running scan. */
export const POLL_MS = 4000;

export interface CardOptions {
  /** History actions: download, export, delete. */
  history: boolean;
  /** Import at once when the scan finishes while shown (and has no tab yet). */
  autoImport: boolean;
}

export function scanCard(first: ScanProgress, opts: CardOptions): HTMLElement {
  const card = h('article', { class: 'card', 'data-scan-id': first.scanId });
  let p = first;
  let timer: number | undefined;
  let wasActive = isActive(first);
  let importedOnSight = false;

  const poll = () => {
    timer = undefined;
    // A card no longer on the page (view switched) stops polling; reopening the view finds the scan again.
    if (!card.isConnected || !isActive(p)) return;
    call('getScanProgress', p.scanId).then(update, (e) => {
      fail(e);
      schedule();
    });
  };
  const schedule = () => {
    if (timer === undefined && isActive(p)) timer = window.setTimeout(poll, POLL_MS);
  };

  const update = (next: ScanProgress) => {
    // A finished or cancelled scan stays so: a poll answered before a Cancel must not revive it.
    if (!isActive(p) && isActive(next)) return;
    if (timer !== undefined && !isActive(next)) {
      window.clearTimeout(timer);
      timer = undefined;
    }
    const finishedNow = wasActive && !isActive(next);
    p = next;
    wasActive = isActive(next);
    draw(finishedNow);
    schedule();
  };

  const cancel = act('Cancel', async () => {
    update(await call('cancelScan', p.scanId));
  });

  function draw(finishedNow: boolean): void {
    const parts: Array<HTMLElement | null> = [cardHead(p.name, 's-' + p.status, statusLabel(p.status)), metaLine(p)];
    if (isActive(p)) parts.push(...runningParts(p, cancel));
    else {
      // `importNow`: the hourly trigger ran without the spreadsheet and could not import it; the open
      // sidebar does (once: the card's later redraws come from polls, which do not set it).
      const now = finishedNow || (p.importNow === true && !importedOnSight);
      if (p.importNow) importedOnSight = true;
      parts.push(...finishedParts(p, opts, opts.autoImport && now && p.status !== 'cancelled'));
    }
    if (opts.history) parts.push(historyActions(p, card));
    fill(card, ...parts);
  }

  draw(false);
  schedule();
  return card;
}

/** "US · Nov 28, 11:42 PM" */
function metaLine(p: ScanProgress): HTMLElement {
  return h('div', 'muted small', [p.marketplace, when(p.createdAt)].filter(Boolean).join(' · '));
}

/** A running scan: its progress bar, the progress line and Cancel. */
function runningParts(p: ScanProgress, cancel: HTMLButtonElement): HTMLElement[] {
  const bar = h(
    'div',
    {
      class: 'bar',
      role: 'progressbar',
      'aria-label': 'Scan progress',
      'aria-valuemin': 0,
      'aria-valuemax': 100,
      'aria-valuenow': Math.round(percent(p)),
    },
    h('div'),
  );
  (bar.firstChild as HTMLElement).style.width = percentFixed(percent(p), 1);
  return [bar, h('div', 'progress small', progressLine(p)), btnRow(cancel)];
}

/**
 * A finished scan: its counts, summary and notes, then its results. Every finished scan can be imported (a cancelled one
 * has the rows done before the cancel); `importNow`: one that finishes while shown is imported at once, as the hourly
 * trigger would — except after a Cancel, when the user decides.
 */
function finishedParts(p: ScanProgress, opts: CardOptions, importNow: boolean): Array<HTMLElement | null> {
  const parts: Array<HTMLElement | null> = [h('div', 'small', countsLine(p))];
  // What a seller decides on, once imported here: profitable rows, best ROI, profit a month.
  if (p.summary) parts.push(h('div', 'small summary', p.summary));
  if (p.note) parts.push(h('div', 'small error', p.note));
  if (p.autoImportStopped) parts.push(h('div', 'small error', p.autoImportStopped));
  parts.push(resultsPanel(p.scanId, p.resultSheet, importNow));
  // New scan's finished card: "Scan this list again" (the list's schedule, as in Settings).
  if (!opts.history) parts.push(scheduleBox(p.scanId));
  return parts;
}

/** The history's actions: download and export (a finished scan), delete after a confirm step, each answering on its own line. */
function historyActions(p: ScanProgress, card: HTMLElement): HTMLElement {
  const box = h('div', 'actions');
  // One answer line per action, so the Drive link of a download stays when Export answers.
  const line = (what: string) => h('div', { class: 'small action-result', 'data-for': what, 'aria-live': 'polite' });
  const dlOut = line('download');
  const exOut = line('export');
  const out = line('delete');
  // Every finished scan has results (a failed or cancelled one: the rows it got to): the service downloads and exports them.
  if (!isActive(p)) {
    box.appendChild(downloadRow(p, dlOut));
    box.appendChild(dlOut);
    box.appendChild(h('div', 'row', exportButton(p, exOut), deleteButton(p, card, out)));
  }
  box.appendChild(exOut);
  box.appendChild(out);
  return box;
}

/** Runs a download or export with `pending` on its answer line; a failure puts back what the line said (an earlier "Saved to Drive" link stays). */
async function answerOn(out: HTMLElement, pending: string, work: () => Promise<Child[]>): Promise<void> {
  const before = Array.from(out.childNodes);
  fill(out, pending);
  try {
    fill(out, ...(await work()));
  } catch (e) {
    fill(out, ...before);
    fail(e);
  }
}

/** Format, Drive or a tab, and Download. */
function downloadRow(p: ScanProgress, out: HTMLElement): HTMLElement {
  const format = select(
    [
      ['csv', 'CSV'],
      ['xlsx', 'XLSX'],
      ['json', 'JSON'],
    ],
    'csv',
    { 'aria-label': 'Download format' },
  );
  const target = select(
    [
      ['drive', 'to Drive'],
      ['tab', 'into a tab'],
    ],
    'drive',
    { 'aria-label': 'Download to' },
  );
  // The service's XLSX is a workbook of its own: it goes to Drive only, so "into a tab" is not offered for it.
  const tabOption = target.options[1];
  format.addEventListener('change', () => {
    tabOption.disabled = tabOption.hidden = format.value === 'xlsx';
    if (tabOption.disabled) target.value = 'drive';
  });
  const dl = act('Download', () =>
    answerOn(out, 'Preparing the download…', async () => {
      const r = await call('downloadScan', p.scanId, format.value as DownloadFormat, target.value as 'drive' | 'tab');
      if (r.url) return ['Saved to Drive: ', link(r.url, r.fileName || 'open the file')];
      if (r.sheetName) return ['Written to tab ', h('b', null, r.sheetName), '.'];
      return ['Saved as ', r.fileName, '.'];
    }),
  );
  return h('div', 'row', format, target, dl);
}

function exportButton(p: ScanProgress, out: HTMLElement): HTMLButtonElement {
  return act('Export', () =>
    answerOn(out, 'Exporting…', async () => {
      const r = await call('exportScan', p.scanId);
      return [r.message || 'Exported.', r.url ? ' ' : '', r.url ? link(r.url, 'Open the export') : null];
    }),
  );
}

/** Delete…, confirmed inline (HtmlService sidebars have no reliable confirm()). */
function deleteButton(p: ScanProgress, card: HTMLElement, out: HTMLElement): HTMLButtonElement {
  return button('Delete…', () => {
    const yes = act(
      'Delete',
      async () => {
        const r = await call('deleteScan', p.scanId);
        if (r.deleted) {
          card.remove();
          message('Scan "' + p.name + '" deleted.', 'ok');
        } else fill(out, 'The scan was not deleted.');
      },
      'danger',
    );
    confirmIn(out, 'Delete "' + p.name + '" and its results at the Scan Service? This cannot be undone.', yes, 'Keep');
  });
}
