/** Settings: API key (only ever shown masked), service address, default marketplace, formula key sharing. */
import type { SettingsView } from '../src/app/protocol';
import { fail, message, register, show } from './app';
import { muted, hint, live, btnRow, act, busy, button, checkbox, field, fill, h, select } from './dom';
import { call } from './server';
import { suppliersSection } from './suppliers';

function render(root: HTMLElement): void {
  fill(root, muted('Loading settings…'));
  call('getSettings').then(
    (s) => form(root, s),
    (e) => {
      fill(root, muted('Settings could not be loaded.'));
      fail(e);
    },
  );
}

function form(root: HTMLElement, s: SettingsView): void {
  // The key field starts empty: the saved key is shown only as the server masks it.
  const key = h('input', {
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    name: 'apiKey',
    placeholder: s.hasApiKey ? 'Paste a new key to replace it' : 'Paste your API key',
  });
  const saved = h('div', { class: 'hint', 'data-role': 'masked-key' }, s.hasApiKey ? 'Saved key: ' + s.apiKeyMasked : 'No key saved yet.');
  const url = h('input', { type: 'url', name: 'serviceUrl', value: s.serviceUrl, spellcheck: 'false' });
  const market = select(
    s.marketplaces.map((m) => [m.code, m.code + ' – ' + m.name]),
    s.defaultMarketplace,
    { name: 'defaultMarketplace' },
  );
  const result = live('result');

  const changed = () => key.value.trim() !== '' || url.value.trim() !== s.serviceUrl || market.value !== s.defaultMarketplace;
  const typed = () => {
    const input: { apiKey?: string; serviceUrl: string; defaultMarketplace: string } = {
      serviceUrl: url.value.trim(),
      defaultMarketplace: market.value,
    };
    if (key.value.trim()) input.apiKey = key.value;
    return input;
  };
  // The owner's first key: formulas in this spreadsheet can be turned on with it, in the same Save
  // (issue 27 item 4: one step from a saved key to working formulas). Ticked: a seller alone in
  // their spreadsheet wants it; the hint says what it costs when editors recalculate.
  const withKey = s.isOwner && !s.hasApiKey ? checkbox(s.help.formulasLabel, true, { name: 'formulasOnMyKey' }) : null;
  const save = async () => {
    // Checked with the service first: a key it refuses is not saved (the saved one stays).
    const input: { apiKey?: string; serviceUrl: string; defaultMarketplace: string; formulasOnMyKey?: boolean; check: true } = {
      ...typed(),
      check: true,
    };
    if (withKey && withKey.input.checked && input.apiKey) input.formulasOnMyKey = true;
    const next = await call('saveSettings', input);
    key.value = '';
    s = next;
    fill(saved, next.hasApiKey ? 'Saved key: ' + next.apiKeyMasked : 'No key saved yet.');
    key.placeholder = next.hasApiKey ? 'Paste a new key to replace it' : 'Paste your API key';
    url.value = next.serviceUrl;
    market.value = next.defaultMarketplace;
  };
  const saveBtn = act(
    'Save',
    async () => {
      fill(result);
      const first = !s.hasApiKey;
      await save();
      // What the service said of the saved settings (worded by the server), else plainly saved.
      const c = s.checked;
      message(c ? c.message : 'Settings saved.', c && !c.ok ? 'info' : 'ok');
      // The first key saved: the next step is the scan the user came for.
      if (first && s.hasApiKey) {
        fill(
          result,
          h('span', 'ok', 'Your key is saved.' + (s.formulaKeyShared ? ' Formulas here run on it.' : '') + ' '),
          button('Continue to New scan', () => show('scan'), 'action'),
        );
        // The key is saved: the Formulas section now shows the on/off switch.
        if (withKey) {
          withKey.row.remove();
          withKeyHint?.remove();
          renderSharing(s);
        }
      }
    },
    'action',
  );
  const testBtn = act('Test connection', async () => {
    fill(result, h('span', 'muted', 'Testing…'));
    try {
      // What the user typed is what they mean to test; it is NOT saved by testing (a mistyped key
      // must not replace the good one). Save keeps it.
      const unsaved = changed();
      const r = await call('testConnection', unsaved ? typed() : null);
      fill(
        result,
        h(
          'span',
          { class: r.ok ? 'ok' : 'error', 'data-problem': r.problem || null },
          r.message + (unsaved ? (r.ok ? s.help.pressSave : s.help.nothingSaved) : ''),
        ),
      );
      if (r.problem === 'bad-key' || r.problem === 'no-key') key.focus();
    } catch (e) {
      fill(result);
      fail(e);
    }
  });

  const sharing = h('div', 'form-group');
  const renderSharing = (v: SettingsView) => {
    if (!v.isOwner) {
      // Not offered (a shared drive, or another user owns the file): the server says why and what works.
      fill(sharing, hint(v.formulaNote));
      return;
    }
    if (!v.hasApiKey) {
      fill(sharing, hint(v.help.formulasNeedKey));
      return;
    }
    const c = checkbox(v.help.formulasLabel, v.formulaKeyShared, { name: 'formulaKeyShared' });
    const note = hint(v.formulaNote);
    c.input.addEventListener('change', () => {
      const on = c.input.checked;
      busy(c.input, () =>
        call('setFormulaKeySharing', on).then(
          (next) => {
            c.input.checked = next.formulaKeyShared;
            fill(note, next.formulaNote);
            message(next.formulaKeyShared ? v.help.formulasOn : v.help.formulasOff, 'ok');
          },
          (e) => {
            c.input.checked = !on;
            throw e;
          },
        ),
      );
    });
    fill(sharing, c.row, note);
  };
  renderSharing(s);
  const withKeyHint = withKey ? hint(s.formulaNote) : null;

  fill(
    root,
    h('h2', null, 'Settings'),
    h('p', 'small', s.help.about),
    withHint(field('API key', key), saved),
    field('Service address', url),
    field('Default marketplace', market),
    ...(withKey ? [h('div', 'form-group', withKey.row, withKeyHint)] : []),
    btnRow(saveBtn, testBtn),
    result,
    h('h3', null, 'Formulas'),
    sharing,
    suppliersSection(s.help.noSuppliers),
    h('h3', null, 'Webhooks'),
    hint(s.help.webhooks),
    btnRow(button('Manage webhooks', () => show('webhooks'))),
  );
}

function withHint(group: HTMLElement, hint: HTMLElement): HTMLElement {
  group.appendChild(hint);
  return group;
}

register('settings', render);
