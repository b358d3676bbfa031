/** Scans: the account's scans, newest first, page by page, each as a card with its actions. */
import { fail, register } from './app';
import { muted, act, fill, h } from './dom';
import { scanCard } from './card';
import { call } from './server';
import { dueScansBox } from './suppliers';

function render(root: HTMLElement): void {
  const listBox = h('div', 'list', muted('Loading scans…'));
  const noticeBox = h('div');
  const pager = h('div', 'pager');
  let page = 1;
  // The list shown stays until a new one arrives: a refused call (e.g. 429, "wait 30 s") must not empty it.
  const load = (p: number): Promise<void> =>
    call('listScans', p).then(
      (r) => {
        page = r.page;
        // Running scans here will not be imported while the sidebar is closed: say so and what to do.
        fill(noticeBox, r.notice ? h('p', 'warn', r.notice) : null, ...(r.schedules || []).map((t) => muted(t)));
        if (!r.scans.length) fill(listBox, muted(r.page > 1 ? 'No more scans.' : 'No scans yet. Start one from New scan.'));
        else fill(listBox, ...r.scans.map((s) => scanCard(s, { history: true, autoImport: false })));
        const newer = act('‹ Newer', () => load(r.page - 1));
        const older = act('Older ›', () => load(r.page + 1));
        fill(pager, r.page > 1 ? newer : null, h('span', 'muted small', 'Page ' + r.page), r.hasMore ? older : null);
      },
      (e) => {
        if (!listBox.querySelector('.card')) fill(listBox, muted('The scans could not be listed.'));
        fail(e);
      },
    );
  const refresh = act('Refresh', () => load(page));
  // Scheduled runs due that the hourly trigger could not send; a sent one shows in the list.
  const due = dueScansBox(() => void load(1));
  fill(root, h('div', 'title-row', h('h2', null, 'Scans'), refresh), due, noticeBox, listBox, pager);
  void load(1);
}

register('history', render);
