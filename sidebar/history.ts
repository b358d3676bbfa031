/** Scans: the account's scans, newest first, page by page, each as a card with its actions. */
import { fail, register } from './app';
import { busy, button, fill, h } from './dom';
import { scanCard } from './card';
import { call } from './server';

function render(root: HTMLElement, page = 1): void {
  const listBox = h('div', { class: 'list' }, h('p', { class: 'muted' }, 'Loading scans…'));
  const noticeBox = h('div');
  const pager = h('div', { class: 'pager' });
  const refresh = button('Refresh', () => busy(refresh, async () => render(root, page)));
  fill(root, h('div', { class: 'title-row' }, h('h2', null, 'Scans'), refresh), noticeBox, listBox, pager);
  call('listScans', page).then(
    (r) => {
      // Running scans here will not be imported while the sidebar is closed: say so and what to do.
      fill(noticeBox, r.notice ? h('p', { class: 'warn' }, r.notice) : null);
      if (!r.scans.length)
        fill(listBox, h('p', { class: 'muted' }, r.page > 1 ? 'No more scans.' : 'No scans yet. Start one from New scan.'));
      else fill(listBox, ...r.scans.map((p) => scanCard(p, { history: true, autoImport: false })));
      fill(
        pager,
        r.page > 1 ? button('‹ Newer', () => render(root, r.page - 1)) : null,
        h('span', { class: 'muted small' }, 'Page ' + r.page),
        r.hasMore ? button('Older ›', () => render(root, r.page + 1)) : null,
      );
    },
    (e) => {
      fill(listBox, h('p', { class: 'muted' }, 'The scans could not be listed.'));
      fail(e);
    },
  );
}

register('history', (root) => render(root));
