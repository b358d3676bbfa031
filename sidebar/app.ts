/**
 * The page's frame: the view tabs, one message line, and what a failure does (a missing or
 * refused key opens Settings). Views register themselves here to avoid import cycles.
 */
import { button, fill, h, keepOut, link, onStepAndFailure } from './dom';
import { call, ServerError } from './server';
import type { ConsentView } from '../src/app/protocol';

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

/** The message line: 'error' (red), 'ok' (green), 'info'; `consentUrl`: Google's link for a missing permission, after the text. */
export function message(text: string, kind: 'error' | 'ok' | 'info' = 'info', consentUrl: string | null = null): void {
  msg.className = 'msg ' + kind;
  msg.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  const close = button('×', clearMessage, 'close');
  close.setAttribute('aria-label', 'Dismiss');
  fill(msg, close, h('span', 'text', text), consentUrl ? link(consentUrl, 'Allow it in Google') : null);
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
  message(text, 'error', e instanceof ServerError ? e.consentUrl : null);
}

/**
 * Granular consent: under the tabs, every feature whose permission the seller did not give and what
 * the hourly run found (Google needs them to allow the add-on again), each with Google's link.
 */
function renderConsent(box: HTMLElement, v: ConsentView): void {
  const items = v.missing.map((m) => h('p', null, m.text + ' ', m.url ? link(m.url, 'Allow it in Google') : null));
  if (v.reauth) items.unshift(h('p', null, v.reauth + ' ', v.reauthUrl ? link(v.reauthUrl, 'Allow the add-on again') : null));
  fill(box, ...items);
  box.hidden = items.length === 0;
}

export function start(mount: HTMLElement, initial: string): void {
  nav = h('nav', 'tabs', ...VIEWS.map(([v, label]) => h('button', { type: 'button', 'data-view': v, onclick: () => show(v) }, label)));
  msg = h('div', { class: 'msg', hidden: true });
  keepOut(msg);
  body = h('div');
  // The sidebar's frame already shows the add-on's name; the heading is for screen readers (one h1 per page).
  const consent = h('div', { class: 'msg info consent', role: 'status', hidden: true });
  fill(mount, h('h1', 'sr', 'Product Sourcing Scan'), nav, consent, msg, body);
  // A failure here only leaves the banner out: each feature still names its missing permission itself.
  call('getConsent').then(
    (v) => renderConsent(consent, v),
    () => undefined,
  );
  // An error belongs to the step that failed: the user's next step takes it away (a new failure shows again).
  onStepAndFailure((control) => {
    from = control;
    if (!msg.hidden && msg.classList.contains('error')) clearMessage();
  }, fail);
  show(VIEWS.some(([v]) => v === initial) ? (initial as View) : 'scan');
}
