/**
 * Settings > Webhooks: the account's webhooks (name, address, events, on/off, created/updated),
 * add one, rename, change the address, turn on/off, regenerate the secret and delete (both
 * confirmed inline), and the secret shown once after create and regenerate, with a copy button.
 * The secret lives only in this page's secret box until "Done" or leaving the view.
 */
import type { WebhookHelp, WebhookList, WebhookSecret, WebhookView } from '../src/app/protocol';
import { fail, message, register, show } from './app';
import { muted, cardHead, live, btnRow, act, busy, button, checkbox, field, fill, h, confirmIn } from './dom';
import { call } from './server';

/** `YYYY-MM-DDTHH:MM:SS` as `YYYY-MM-DD HH:MM`; other text as it is. */
export function when(t: string): string {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(t || '');
  return m ? m[1] + ' ' + m[2] : t || '—';
}

/** The explanations, from the server (they cost the page nothing): what can receive, and a sample event to set up an automation with. */
function helpBox(help: WebhookHelp): HTMLElement {
  const sample = h('textarea', {
    readonly: true,
    rows: 8,
    spellcheck: 'false',
    'aria-label': 'Sample scan.complete event',
    name: 'sample',
  });
  sample.value = help.sample;
  return h(
    'div',
    null,
    h('details', 'receiver-help', h('summary', null, 'What can receive webhooks'), ...help.receiver.map((t) => h('p', 'small', t))),
    h(
      'details',
      'sample-event',
      h('summary', null, 'Sample event (for Zapier or Make)'),
      ...help.test.map((t) => h('p', 'small', t)),
      sample,
    ),
  );
}

/** The secret, once: a read-only field, Copy, and Done (which removes it from the page). */
function secretBox(box: HTMLElement, made: WebhookSecret, what: string, help: WebhookHelp): void {
  const input = h('input', {
    type: 'text',
    readonly: true,
    value: made.secret,
    spellcheck: 'false',
    'aria-label': 'Webhook secret',
    name: 'secret',
  });
  const status = live('small', 'span');
  const copy = button(
    'Copy',
    () => {
      const done = () => fill(status, 'Copied.');
      const fallback = () => {
        input.focus();
        input.select();
        let ok = false;
        try {
          ok = document.execCommand('copy');
        } catch (_e) {
          ok = false;
        }
        if (ok) done();
        else fill(status, help.copyByHand);
      };
      // The clipboard API may be refused inside the add-on's frame; selecting and copying works there.
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(made.secret).then(done, fallback);
      else fallback();
    },
    'action',
  );
  const close = button('Done', () => fill(box));
  fill(
    box,
    h(
      'div',
      { class: 'secret', role: 'region', 'aria-label': 'New secret' },
      h('p', null, what + ' ', h('b', null, made.webhook.name), ':'),
      input,
      btnRow(copy, close, status),
      h('p', 'warn', help.secretOnce),
    ),
  );
  input.select();
}

/** The webhooks page: where the list, the add form and a new secret go, the words of the last list, and how it reloads. */
interface HooksPage {
  secret: HTMLElement;
  listBox: HTMLElement;
  addBox: HTMLElement;
  /** The words of the last list (the questions and the secret's note come with it). */
  help(): WebhookHelp;
  load(): Promise<void>;
}

function render(root: HTMLElement): void {
  const secret = h('div', { 'data-role': 'secret' });
  const listBox = h('div', 'list', muted('Loading webhooks…'));
  const addBox = h('div');
  const about = h('div');
  const back = button('‹ Settings', () => show('settings'));
  const refresh = act('Refresh', async () => load());
  fill(root, h('div', 'title-row', h('h2', null, 'Webhooks'), h('span', null, back, refresh)), about, secret, listBox, addBox);

  let help: WebhookHelp;
  const page: HooksPage = { secret, listBox, addBox, help: () => help, load: () => load() };
  const load = (): Promise<void> =>
    call('listWebhooks').then(
      (list) => {
        help = list.help;
        fill(about, h('p', 'small', list.help.about), helpBox(list.help));
        drawList(page, list);
        drawAdd(page, list);
      },
      (e) => {
        fill(listBox, muted('The webhooks could not be listed.'));
        fill(addBox);
        fail(e);
      },
    );
  void load();
}

/** A change to a webhook from `btn`: then the list as it is now, also after a failure (with the server's message). */
function change(page: HooksPage, btn: HTMLButtonElement, work: () => Promise<unknown>): void {
  busy(btn, () =>
    work().then(page.load, (e) => {
      fail(e);
      return page.load();
    }),
  );
}

function drawList(page: HooksPage, list: WebhookList): void {
  const count = h('p', { class: 'small muted', 'data-role': 'count' }, list.webhooks.length + ' of ' + list.limit + ' webhooks');
  if (!list.webhooks.length) fill(page.listBox, muted('No webhooks yet.'), count);
  else fill(page.listBox, ...list.webhooks.map((w) => hookCard(page, w)), count);
}

/** One webhook: what it is, and its actions, which answer in the card's `out` line. */
function hookCard(page: HooksPage, w: WebhookView): HTMLElement {
  const out = h('div', 'out');
  const actions = h(
    'div',
    'row',
    button(
      'Rename',
      editStep(page, out, 'New name', 'rename', w.name, 'text', (v) => call('updateWebhook', w.id, { name: v })),
    ),
    button(
      'Change address',
      editStep(page, out, 'New address', 'address', w.url, 'url', (v) => call('updateWebhook', w.id, { url: v })),
    ),
    toggleButton(page, w),
    newSecretButton(page, w, out),
    deleteButton(page, w, out),
  );
  return h(
    'article',
    { class: 'card webhook', 'data-id': w.id },
    cardHead(w.name, w.active ? 's-success' : 's-off', w.active ? 'on' : 'off'),
    h('div', 'url small', w.url),
    h('div', 'small muted', 'Events: ' + (w.events.join(', ') || '—')),
    h('div', 'small muted', 'Created ' + when(w.createdAt) + ' · updated ' + when(w.updatedAt)),
    h('div', 'actions', actions),
    out,
  );
}

/** Rename or Change address: a field with the value as it is, Save and Cancel, in `out`. */
function editStep(
  page: HooksPage,
  out: HTMLElement,
  label: string,
  name: string,
  value: string,
  type: string,
  save: (v: string) => Promise<unknown>,
): () => void {
  return () => {
    const input = h('input', { type, name, value, spellcheck: 'false' });
    const ok: HTMLButtonElement = button('Save', () => change(page, ok, () => save(input.value)), 'action');
    fill(
      out,
      field(label, input),
      btnRow(
        ok,
        button('Cancel', () => fill(out)),
      ),
    );
    input.focus();
  };
}

function toggleButton(page: HooksPage, w: WebhookView): HTMLButtonElement {
  const toggle: HTMLButtonElement = button(w.active ? 'Turn off' : 'Turn on', () =>
    change(page, toggle, async () => {
      const next = await call('updateWebhook', w.id, { active: !w.active });
      message('Webhook "' + next.name + '" is ' + (next.active ? 'on' : 'off') + '.', 'ok');
    }),
  );
  return toggle;
}

/** New secret…, confirmed inline; the new secret is shown once. */
function newSecretButton(page: HooksPage, w: WebhookView, out: HTMLElement): HTMLButtonElement {
  return button('New secret…', () => {
    const yes: HTMLButtonElement = button(
      'Make a new secret',
      () =>
        change(page, yes, async () => {
          const made = await call('regenerateWebhookSecret', w.id);
          fill(out);
          secretBox(page.secret, made, 'New secret of', page.help());
        }),
      'danger',
    );
    confirmIn(out, 'Make a new secret for "' + w.name + page.help().regenerate, yes, 'Keep the old one');
  });
}

/** Delete…, confirmed inline. */
function deleteButton(page: HooksPage, w: WebhookView, out: HTMLElement): HTMLButtonElement {
  return button('Delete…', () => {
    const yes: HTMLButtonElement = button(
      'Delete',
      () =>
        change(page, yes, async () => {
          const r = await call('deleteWebhook', w.id);
          message(r.deleted ? 'Webhook "' + w.name + '" deleted.' : 'Webhook "' + w.name + '" was already deleted.', 'ok');
        }),
      'danger',
    );
    confirmIn(out, 'Delete the webhook "' + w.name + page.help().delete, yes, 'Keep');
  });
}

/** Add a webhook (name, address, events), or why no more can be added. */
function drawAdd(page: HooksPage, list: WebhookList): void {
  if (list.atLimit) {
    fill(page.addBox, h('p', { class: 'warn', 'data-role': 'limit' }, list.limitMessage || 'This account has the most webhooks allowed.'));
    return;
  }
  const name = h('input', { type: 'text', name: 'webhookName', placeholder: 'e.g. Team chat' });
  const url = h('input', { type: 'url', name: 'webhookUrl', placeholder: 'https://…', spellcheck: 'false' });
  const events = list.events.map((e) => ({ e, c: checkbox(e, true, { name: 'event', value: e }) }));
  const add = act(
    'Add webhook',
    async () => {
      const made = await call('createWebhook', {
        name: name.value,
        url: url.value,
        events: events.filter((x) => x.c.input.checked).map((x) => x.e),
      });
      secretBox(page.secret, made, 'Secret of', page.help());
      message('Webhook "' + made.webhook.name + '" added.', 'ok');
      await page.load();
    },
    'action',
  );
  fill(
    page.addBox,
    h('h3', null, 'Add a webhook'),
    field('Name', name),
    field('Address', url, list.help.address),
    h('div', 'form-group', h('label', null, 'Events'), ...events.map((x) => x.c.row)),
    btnRow(add),
  );
}

register('webhooks', render);
