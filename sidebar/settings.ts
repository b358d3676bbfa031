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

/** The settings form's controls, and the settings as last saved (Save, Test connection and the change check read them). */
interface SettingsForm {
  view: SettingsView;
  key: HTMLInputElement;
  saved: HTMLElement;
  url: HTMLInputElement;
  market: HTMLSelectElement;
  result: HTMLElement;
  sharing: HTMLElement;
  /**
   * The owner's first key: formulas in this spreadsheet can be turned on with it, in the same Save
   * (issue 27 item 4: one step from a saved key to working formulas). Ticked: a seller alone in
   * their spreadsheet wants it; the hint says what it costs when editors recalculate.
   */
  withKey: { row: HTMLElement; input: HTMLInputElement; hint: HTMLElement } | null;
}

function form(root: HTMLElement, s: SettingsView): void {
  const f = settingsForm(s);
  renderSharing(f.sharing, s);
  fill(
    root,
    h('h2', null, 'Settings'),
    h('p', 'small', s.help.about),
    withHint(field('API key', f.key), f.saved),
    field('Service address', f.url),
    field('Default marketplace', f.market),
    ...(f.withKey ? [h('div', 'form-group', f.withKey.row, f.withKey.hint)] : []),
    btnRow(saveButton(f), testButton(f)),
    f.result,
    h('h3', null, 'Formulas'),
    f.sharing,
    suppliersSection(s.help.noSuppliers, s.help.forgetSupplier),
    h('h3', null, 'Webhooks'),
    hint(s.help.webhooks),
    btnRow(button('Manage webhooks', () => show('webhooks'))),
  );
}

function settingsForm(s: SettingsView): SettingsForm {
  // The key field starts empty: the saved key is shown only as the server masks it.
  const key = h('input', {
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    name: 'apiKey',
    placeholder: keyPlaceholder(s),
  });
  const withKey = s.isOwner && !s.hasApiKey ? checkbox(s.help.formulasLabel, true, { name: 'formulasOnMyKey' }) : null;
  return {
    view: s,
    key,
    saved: h('div', { class: 'hint', 'data-role': 'masked-key' }, savedKeyLine(s)),
    url: h('input', { type: 'url', name: 'serviceUrl', value: s.serviceUrl, spellcheck: 'false' }),
    market: select(
      s.marketplaces.map((m) => [m.code, m.code + ' – ' + m.name]),
      s.defaultMarketplace,
      { name: 'defaultMarketplace' },
    ),
    result: live('result'),
    sharing: h('div', 'form-group'),
    withKey: withKey ? { row: withKey.row, input: withKey.input, hint: hint(s.formulaNote) } : null,
  };
}

function keyPlaceholder(v: SettingsView): string {
  return v.hasApiKey ? 'Paste a new key to replace it' : 'Paste your API key';
}

function savedKeyLine(v: SettingsView): string {
  return v.hasApiKey ? 'Saved key: ' + v.apiKeyMasked : 'No key saved yet.';
}

function changed(f: SettingsForm): boolean {
  return f.key.value.trim() !== '' || f.url.value.trim() !== f.view.serviceUrl || f.market.value !== f.view.defaultMarketplace;
}

/** What the user typed (a blank key field keeps the saved key). */
function typed(f: SettingsForm): { apiKey?: string; serviceUrl: string; defaultMarketplace: string } {
  const input: { apiKey?: string; serviceUrl: string; defaultMarketplace: string } = {
    serviceUrl: f.url.value.trim(),
    defaultMarketplace: f.market.value,
  };
  if (f.key.value.trim()) input.apiKey = f.key.value;
  return input;
}

/** Saves what was typed and shows the settings as saved (the key field emptied). */
async function save(f: SettingsForm): Promise<void> {
  // Checked with the service first: a key it refuses is not saved (the saved one stays).
  const input: { apiKey?: string; serviceUrl: string; defaultMarketplace: string; formulasOnMyKey?: boolean; check: true } = {
    ...typed(f),
    check: true,
  };
  if (f.withKey && f.withKey.input.checked && input.apiKey) input.formulasOnMyKey = true;
  const next = await call('saveSettings', input);
  f.key.value = '';
  f.view = next;
  fill(f.saved, savedKeyLine(next));
  f.key.placeholder = keyPlaceholder(next);
  f.url.value = next.serviceUrl;
  f.market.value = next.defaultMarketplace;
}

function saveButton(f: SettingsForm): HTMLButtonElement {
  return act(
    'Save',
    async () => {
      fill(f.result);
      const first = !f.view.hasApiKey;
      await save(f);
      const s = f.view;
      // What the service said of the saved settings (worded by the server), else plainly saved.
      const c = s.checked;
      message(c ? c.message : 'Settings saved.', c && !c.ok ? 'info' : 'ok');
      if (first && s.hasApiKey) firstKeySaved(f);
    },
    'action',
  );
}

/** The first key saved: the next step is the scan the user came for, and the Formulas section now shows the on/off switch. */
function firstKeySaved(f: SettingsForm): void {
  const s = f.view;
  fill(
    f.result,
    h('span', 'ok', 'Your key is saved.' + (s.formulaKeyShared ? ' Formulas here run on it.' : '') + ' '),
    button('Continue to New scan', () => show('scan'), 'action'),
  );
  if (f.withKey) {
    f.withKey.row.remove();
    f.withKey.hint.remove();
    renderSharing(f.sharing, s);
  }
}

function testButton(f: SettingsForm): HTMLButtonElement {
  return act('Test connection', async () => {
    fill(f.result, h('span', 'muted', 'Testing…'));
    try {
      // What the user typed is what they mean to test; it is NOT saved by testing (a mistyped key
      // must not replace the good one). Save keeps it.
      const unsaved = changed(f);
      const r = await call('testConnection', unsaved ? typed(f) : null);
      fill(
        f.result,
        h(
          'span',
          { class: r.ok ? 'ok' : 'error', 'data-problem': r.problem || null },
          r.message + (unsaved ? (r.ok ? f.view.help.pressSave : f.view.help.nothingSaved) : ''),
        ),
      );
      if (r.problem === 'bad-key' || r.problem === 'no-key') f.key.focus();
    } catch (e) {
      fill(f.result);
      fail(e);
    }
  });
}

/** The Formulas section: the on/off switch of formulas on the owner's key, or why it is not offered. */
function renderSharing(sharing: HTMLElement, v: SettingsView): void {
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
}

function withHint(group: HTMLElement, hint: HTMLElement): HTMLElement {
  group.appendChild(hint);
  return group;
}

register('settings', render);
