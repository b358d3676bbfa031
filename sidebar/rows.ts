/**
 * Lists > Selected rows: the row actions on the rows selected in a result tab. The buttons come
 * from the server (listRowActions: labels and the session's last actions, so their text costs the
 * page nothing); a button asks what it would do (previewRowAction), Apply does it; Undo per recent
 * action not undone yet. The box holds the units, tag names or note of the actions that ask. Text only.
 */
import type { RowActionId, RowActionsView } from '../src/app/protocol';
import { fail, message } from './app';
import { button, fill, h } from './dom';
import { call } from './server';

export function rowsSection(): HTMLElement {
  const root = h('div', 'rows');
  const arg = h('input');
  const out = h('div', { class: 'small', 'aria-live': 'polite' });
  const done = (r: { message: string }) => (message(r.message, 'ok'), load());
  const go = (id: RowActionId) =>
    call('previewRowAction', id, arg.value).then(
      (p) =>
        fill(out, p.message + ' ', p.count ? button('Apply', () => call('applyRowAction', id, arg.value).then(done, fail), 'action') : ''),
      fail,
    );
  const show = (v: RowActionsView) => {
    arg.placeholder = v.hint;
    fill(out);
    fill(
      root,
      h('h3', null, 'Selected rows'),
      h('div', 'buttons', ...v.actions.map((a) => button(a.label, () => go(a.id)))),
      arg,
      out,
      ...v.recent.map((x) =>
        h(
          'div',
          'small',
          x.summary,
          ' ',
          button('Undo', () => call('undoRowAction', x.id).then(done, fail), 'link'),
        ),
      ),
    );
  };
  const load = () => {
    call('listRowActions').then(show).catch(fail);
  };
  load();
  return root;
}
