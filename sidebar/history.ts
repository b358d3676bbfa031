/** Scans: the account's scans, newest first, page by page, each as a card with its actions. */
import { fail, register } from './app';
import { busy, button, fill, h } from './dom';
import { scanCard } from './card';
import { call } from './server';

function render(root: HTMLElement, page = 1): void {
  const listBox = h('div', 'list', h('p', 'muted', 'Loading scans…'));
  const pager = h('div', 'pager');
  const refresh = button('Refresh', () => busy(refresh, async () => render(root, page)));
  fill(root, h('div', 'title-row', h('h2', null, 'Scans'), refresh), listBox, pager);
  call('listScans', page).then(
    (r) => {
      if (!r.scans.length) fill(listBox, h('p', 'muted', r.page > 1 ? 'No more scans.' : 'No scans yet. Start one from New scan.'));
      else fill(listBox, ...r.scans.map((p) => scanCard(p, { history: true, autoImport: false })));
      fill(
        pager,
        r.page > 1 ? button('‹ Newer', () => render(root, r.page - 1)) : null,
        h('span', 'muted small', 'Page ' + r.page),
        r.hasMore ? button('Older ›', () => render(root, r.page + 1)) : null,
      );
    },
    (e) => {
      fill(listBox, h('p', 'muted', 'The scans could not be listed.'));
      fail(e);
    },
  );
}

register('history', (root) => render(root));
