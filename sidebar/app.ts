/**
 * The page's frame: the view tabs, one message line, and what a failure does (a missing or
 * refused key opens Settings). Views register themselves here to avoid import cycles.
 */
import { button, fill, h, keepOut, link, muted, onStepAndFailure } from './dom';
import { call, ServerError } from './server';

/** `webhooks` is a page of Settings (no tab of its own). */
export type View = 'scan' | 'history' | 'convert' | 'lists' | 'settings' | 'help' | 'webhooks';
export const VIEWS: Array<[View, string]> = [
  ['scan', 'New scan'],
  ['history', 'Scans'],
  ['convert', 'Convert'],
  ['lists', 'Lists'],
  ['settings', 'Settings'],
  ['help', 'Help'],
];

const renderers: Partial<Record<View, (root: HTMLElement) => void>> = {};
let current: View = 'scan';
let nav: HTMLElement;
let msg: HTMLElement;
let body: HTMLElement;
/** The control of the step under way: its answer is shown next to it (a long form's buttons are far below the top). */
let from: Element | null = null;

export function register(view: View, render: (root: HTMLElement) => void): void {
  renderers[view] = render;
}

export function currentView(): View {
  return current;
}

/** Shows a view (rebuilt from the server's data each time). Keeps the message unless told. */
export function show(view: View, keepMessage = false): void {
  current = view;
  if (!keepMessage) clearMessage();
  // The view is rebuilt: the message line goes back under the tabs before the old view goes.
  from = null;
  nav.after(msg);
  const tab = view === 'webhooks' ? 'settings' : view;
  for (const b of Array.from(nav.children)) b.setAttribute('aria-current', String(b.getAttribute('data-view') === tab));
  body.textContent = '';
  const root = h('section', { class: 'view', 'data-view': view });
  body.appendChild(root);
  const r = renderers[view];
  if (r) r(root);
}

/** The message line: 'error' (red), 'ok' (green), 'info'. */
export function message(text: string, kind: 'error' | 'ok' | 'info' = 'info'): void {
  msg.className = 'msg ' + kind;
  msg.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  const close = button('×', clearMessage, 'close');
  close.setAttribute('aria-label', 'Dismiss');
  fill(msg, close, h('span', 'text', text));
  // Next to the buttons of the step that caused it (under their row), else under the tabs; in view either way.
  const near =
    from && from.isConnected && body.contains(from) ? from.closest('.buttons, .row, .title-row, .form-group, label') || from : null;
  if (near) near.after(msg);
  else nav.after(msg);
  msg.hidden = false;
  msg.scrollIntoView({ block: 'nearest' });
}

export function clearMessage(): void {
  msg.hidden = true;
  msg.textContent = '';
}

/** What every failed call ends in: the plain message; Settings when the key is missing or refused. */
export function fail(e: unknown): void {
  const text = e instanceof Error ? e.message : String(e);
  if (e instanceof ServerError && e.openSettings && current !== 'settings') show('settings');
  message(text, 'error');
}

export function start(mount: HTMLElement, initial: string): void {
  nav = h('nav', 'tabs', ...VIEWS.map(([v, label]) => h('button', { type: 'button', 'data-view': v, onclick: () => show(v) }, label)));
  msg = h('div', { class: 'msg', hidden: true });
  keepOut(msg);
  body = h('div');
  // Granular consent: under the tabs, what the hourly run found (Google needs the seller to allow the
  // add-on again) and each feature whose permission the seller did not give, each line a link to
  // Google's consent window. A failure to ask leaves it empty: each feature names its permission itself.
  const consent = h('div', 'consent');
  call('getConsent').then((v) => fill(consent, ...v.notices.map((n) => muted(link(n.url, n.text)))), String);
  // The sidebar's frame already shows the add-on's name; the heading is for screen readers (one h1 per page).
  fill(mount, h('h1', 'sr', document.title), nav, consent, msg, body);
  // An error belongs to the step that failed: the user's next step takes it away (a new failure shows again).
  onStepAndFailure((control) => {
    from = control;
    if (!msg.hidden && msg.classList.contains('error')) clearMessage();
  }, fail);
  show(VIEWS.some(([v]) => v === initial) ? (initial as View) : 'scan');
}
