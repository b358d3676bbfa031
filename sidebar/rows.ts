/**
 * Lists > Selected rows: the row actions on the rows selected in a result tab. The buttons come
 * from the server (listRowActions: labels and the session's last actions, so their text costs the
 * page nothing); a button asks what it would do (previewRowAction: its words, then the rows with
 * their pictures for a match action), Apply, below them, does it; Undo per recent
 * action not undone yet. The box holds the units, tag names or note of the actions that ask. Every
 * button goes through busy(): a double click sends once, and a new step takes an old error away.
 * `changed` runs after Apply and Undo (the Lists view shows the lists' new counts). Text only.
 */
import type { RowActionId, RowActionsView, RowPicture } from '../src/app/protocol';
import { fail, message } from './app';
import { live, btnRow, act, busy, button, fill, h, picture } from './dom';
import { call } from './server';

export function rowsSection(changed: () => void): HTMLElement {
  const root = h('div', 'rows');
  const arg = h('input', { 'aria-label': 'Units, tags or note' });
  const out = live('small');
  const done = (r: { message: string }) => {
    message(r.message, 'ok');
    load();
    changed();
  };
  const go = (btn: HTMLButtonElement, id: RowActionId) =>
    busy(btn, async () => {
      fill(out);
      const p = await call('previewRowAction', id, arg.value);
      const apply = act('Apply', () => call('applyRowAction', id, arg.value).then(done), 'action');
      // What Apply applies to (the rows and their pictures) first, then Apply: read top to bottom.
      fill(out, p.message + ' ', pictureList(p.pictures), p.count ? apply : '');
    });
  const show = (v: RowActionsView) => {
    arg.placeholder = v.hint;
    fill(out);
    fill(
      root,
      h('h3', null, 'Selected rows'),
      btnRow(
        ...v.actions.map((a) => {
          const b: HTMLButtonElement = button(a.label, () => go(b, a.id));
          return b;
        }),
      ),
      arg,
      out,
      ...v.recent.map((x) => {
        const undo = act('Undo', () => call('undoRowAction', x.id).then(done), 'link');
        return h('div', 'small', x.summary, ' ', undo);
      }),
    );
  };
  const load = () => {
    call('listRowActions').then(show).catch(fail);
  };
  load();
  return root;
}

/** Issue 36: the selected rows' pictures beside the supplier's title, so a wrong match shows at a glance. */
function pictureList(rows: RowPicture[] | undefined): HTMLElement | '' {
  if (!rows || !rows.length) return '';
  return h(
    'ul',
    'pictures',
    ...rows.map((r) =>
      h(
        'li',
        null,
        picture(r.picture, r.title || r.supplierTitle || 'Row ' + r.sheetRow),
        h(
          'span',
          null,
          h('b', null, 'Row ' + r.sheetRow + ': '),
          r.supplierTitle ? 'Supplier: ' + r.supplierTitle : '',
          r.supplierTitle && r.title ? ' · ' : '',
          r.title ? 'Listing: ' + r.title : '',
        ),
      ),
    ),
  );
}
