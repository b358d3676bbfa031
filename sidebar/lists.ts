/**
 * Lists: tags, notes, blocklists, listing matches and multipack corrections kept in step with the
 * spreadsheet. Each list with its count, last sync and result; Set up, Preview, Sync now (called
 * again while the server says it is not done, with the counts so far); per list the conflicts
 * side by side with "keep the sheet's" / "keep the service's", refused rows as links that select
 * the row, and "Confirm deletions" for lists the deletion guard stopped. Text only (dom.ts).
 */
import type { ListEntryView, ListReport, ListsStatus, SyncReport } from '../src/app/protocol';
import { fail, message, register } from './app';
import { muted, cardHead, live, btnRow, act, button, checkbox, fill, h } from './dom';
import { num, when } from './format';
import { call } from './server';
import { rowsSection } from './rows';

/** Safety net: a sync that never says done stops after this many calls. */
const MAX_CALLS = 30;

function statusTable(s: ListsStatus): HTMLElement {
  return h(
    'div',
    'lists-status',
    ...s.lists.map((l) =>
      h(
        'div',
        { class: 'card', 'data-list': l.list },
        cardHead(l.title, '', l.count === null ? '–' : num(l.count)),
        h(
          'div',
          'small muted',
          l.sheetName ? 'In the tab ' + l.sheetName + ' (named range ' + l.rangeName + ')' : 'Not set up yet: press Set up lists',
        ),
        h('div', 'small', l.lastSync ? 'Last sync ' + when(l.lastSync) + ': ' + l.lastResult : l.lastResult),
      ),
    ),
  );
}

const WHAT: Array<[ListEntryView['to'], ListEntryView['change'], string]> = [
  ['service', 'deleted', 'Delete at the service'],
  ['sheet', 'deleted', 'Delete from the sheet'],
  ['service', 'added', 'Add to the service'],
  ['service', 'changed', 'Change at the service'],
  ['sheet', 'added', 'Add to the sheet'],
  ['sheet', 'changed', 'Change in the sheet'],
];

/** The entries a sync changes or would change, by name, one line per kind of change: the first ones the server lists, then how many more. */
function entryList(r: ListReport): HTMLElement {
  return h(
    'ul',
    'entries small',
    ...WHAT.map(([to, change, what]) => {
      const names = r.entries.filter((e) => e.to === to && e.change === change).map((e) => e.label);
      const more = (to === 'service' ? r.toService : r.toSheet)[change] - names.length;
      return names.length
        ? h('li', null, h('b', null, what + ': '), names.join('; '), more > 0 ? ' and ' + num(more) + ' more' : '')
        : null;
    }),
  );
}

function reportCard(r: ListReport, after: (next: Promise<SyncReport>) => void, restored: (s: ListsStatus) => void): HTMLElement {
  const card = h(
    'div',
    { class: 'card report', 'data-list': r.list, 'data-state': r.state },
    cardHead(r.title, '', r.state),
    h('div', 'small', r.message),
    entryList(r),
  );
  // The guard stopped deletions at the service (rows that left the sheet): offer to put those rows back.
  if (r.state === 'blocked' && r.serviceDeletions) {
    const back = act('Put them back in the sheet', () =>
      call('restoreListEntries', r.list).then((x) => {
        card.remove();
        restored(x.status);
        message(x.message, 'ok');
      }),
    );
    card.appendChild(btnRow(back));
  }
  if (r.conflicts.length) {
    const keep = (keys: string[] | 'all', side: 'sheet' | 'service') => after(call('resolveConflicts', r.list, keys, side));
    card.appendChild(h('h3', null, 'Conflicts (' + num(r.conflictCount) + ')'));
    for (const c of r.conflicts) {
      card.appendChild(
        h(
          'div',
          'conflict',
          h('div', 'small', h('b', null, c.label), c.row ? ' (row ' + c.row + ')' : ''),
          h(
            'div',
            'sides',
            h('div', 'side', h('div', 'muted small', 'Sheet'), c.sheet === null ? '(deleted)' : c.sheet),
            h('div', 'side', h('div', 'muted small', 'Service'), c.service === null ? '(deleted)' : c.service),
          ),
          h(
            'div',
            'row',
            button("Keep the sheet's", () => keep([c.key], 'sheet')),
            button("Keep the service's", () => keep([c.key], 'service')),
          ),
        ),
      );
    }
    card.appendChild(
      h(
        'div',
        'row',
        button("Keep the sheet's for all", () => keep('all', 'sheet')),
        button("Keep the service's for all", () => keep('all', 'service')),
      ),
    );
  }
  if (r.refused.length && r.sheetName) {
    const sheetName = r.sheetName;
    card.appendChild(h('h3', null, 'Refused rows (' + num(r.refusedCount) + '), not sent'));
    card.appendChild(
      h(
        'ul',
        null,
        ...r.refused.map((x) =>
          h(
            'li',
            null,
            button('Row ' + x.row, () => call('selectRow', sheetName, x.row).catch(fail), 'link'),
            ' ' + x.reason,
          ),
        ),
      ),
    );
  }
  return card;
}

function render(root: HTMLElement): void {
  const status = h('div', null, muted('Loading…'));
  const progress = live('lists-progress');
  const reports = h('div');
  const auto = checkbox('Sync automatically every hour', false, { name: 'auto-sync' });

  const showStatus = (s: ListsStatus) => {
    auto.input.checked = s.autoSync;
    // Once no stopped list is left (its rows were put back), there is nothing to confirm.
    if (!reports.querySelector('.report[data-state=blocked]')) reports.querySelector('.confirm')?.remove();
    fill(
      status,
      statusTable(s),
      s.unfinished ? h('p', 'small', 'A sync was cut off: Sync now continues it.') : null,
      s.notice ? h('p', 'small', s.notice) : null,
    );
  };
  const refresh = () => call('getListsStatus').then(showStatus).catch(fail);

  const showReport = (r: SyncReport) => {
    // A list the guard stopped changed nothing.
    const counts = r.lists
      .filter((l) => r.preview || l.state !== 'blocked')
      .reduce(
        (n, l) =>
          n + l.toService.added + l.toService.changed + l.toService.deleted + l.toSheet.added + l.toSheet.changed + l.toSheet.deleted,
        0,
      );
    message(
      r.message + (r.preview ? ' Nothing was changed.' : ''),
      r.lists.some((l) => l.state === 'blocked' || l.conflictCount) ? 'info' : 'ok',
    );
    fill(
      reports,
      h('h3', null, r.preview ? 'Preview' : 'Last sync'),
      h('p', 'small muted', num(counts) + (r.preview ? ' changes to make' : ' changes made') + ', ' + num(r.requests) + ' requests'),
      ...r.lists.filter((l) => l.state !== 'not-set-up').map((l) => reportCard(l, follow, showStatus)),
    );
    const blocked = r.lists.filter((l) => l.state === 'blocked');
    if (blocked.length && !r.preview) {
      const confirm = act('Confirm deletions and sync', () => runSync(true), 'danger');
      reports.appendChild(h('div', 'confirm', blocked.map((l) => l.title + ': ' + l.message).join(' '), btnRow(confirm)));
    }
  };
  const follow = (next: Promise<SyncReport>) => {
    next.then((r) => (showReport(r), refresh())).catch(fail);
  };

  async function runSync(confirmDeletions: boolean): Promise<void> {
    let lists = 0;
    fill(progress, 'Syncing…');
    try {
      for (let i = 0; i < MAX_CALLS; i++) {
        const r = await call('syncNow', confirmDeletions);
        lists = r.lists.length;
        fill(progress, r.done ? '' : 'Synced ' + lists + ' of 6 lists (' + num(r.requests) + ' requests)… continuing');
        if (r.done) {
          showReport(r);
          break;
        }
      }
    } catch (e) {
      fill(progress);
      fail(e);
    }
    await refresh();
  }

  const setUp = act('Set up lists', () => call('setUpLists').then(showStatus, fail));
  const preview = act('Preview', async () => {
    fill(progress, 'Reading the lists…');
    try {
      showReport(await call('previewSync'));
    } catch (e) {
      fail(e);
    }
    fill(progress);
  });
  const sync = act('Sync now', () => runSync(false), 'action');
  auto.input.addEventListener('change', () => call('setAutoSync', auto.input.checked).then(showStatus, fail));

  fill(
    root,
    h('h2', null, 'Lists'),
    status,
    btnRow(setUp, preview, sync),
    h('div', 'form-group', auto.row),
    progress,
    reports,
    // A row action writes the lists: their counts and state are read again.
    rowsSection(() => void refresh()),
  );
  // refresh() ends in .catch(fail): nothing to await here.
  void refresh();
}

register('lists', render);
