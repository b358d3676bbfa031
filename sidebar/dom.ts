/**
 * The only way the sidebar builds its page: elements and text nodes. Everything shown comes from
 * text we did not write (sheet cells, the service's answers), so nothing is ever parsed as HTML
 * (no innerHTML/insertAdjacentHTML anywhere), and links get an href only for http(s) addresses,
 * pictures a src only for the addresses the add-on writes.
 */
import { pictureAddress } from '../src/domain/result-tabs/picture';

export type Child = Node | string | number | null | undefined | false;
type Listener = (ev: Event) => void;
export interface Props {
  [name: string]: string | number | boolean | Listener | null | undefined;
}

/**
 * An element with attributes/properties and children. `onclick` etc. become listeners; `href` is refused (use link()).
 * A string instead of props is the class name (the shortest form: the page is served on every open).
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | string | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (typeof props === 'string') el.className = props;
  else if (props) {
    for (const name of Object.keys(props)) {
      const v = props[name];
      if (v === null || v === undefined || v === false) continue;
      if (typeof v === 'function') el.addEventListener(name.slice(2), v);
      else if (name === 'href' || name === 'src' || /^on/.test(name)) throw new Error('h(): ' + name + ' is not allowed');
      else if (name === 'value' || name === 'checked' || name === 'disabled' || name === 'selected')
        (el as unknown as Record<string, unknown>)[name] = v;
      else el.setAttribute(name, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

let keep: Element | null = null;
/** An element that outlives the part it was put in (app.ts's message line): a part being refilled moves it out, just below. */
export function keepOut(el: Element): void {
  keep = el;
}

/** Replaces an element's content. */
export function fill(el: Element, ...children: Child[]): void {
  if (keep && keep !== el && el.contains(keep)) el.after(keep);
  el.textContent = '';
  append(el, children);
}

/** The address when it is an absolute http(s) URL without credentials, else null. */
export function safeUrl(url: unknown): string | null {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url.trim())) return null;
  try {
    const u = new URL(url.trim());
    if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password) return null;
    return u.href;
  } catch (_e) {
    return null;
  }
}

/** A link opening in a new tab, or just the text when the address is not a safe http(s) URL. */
export function link(url: unknown, text: string): HTMLElement {
  const href = safeUrl(url);
  if (!href) return h('span', null, text);
  const a = h('a', { target: '_blank', rel: 'noopener noreferrer' }, text);
  a.href = href;
  return a;
}

/**
 * A product picture, or a plain "No picture" when the address is not one the add-on would write
 * (pictureAddress: https, no quote or control character). The address came from the server, which
 * checked it too; it is checked here again because it was read from a cell anyone may edit.
 */
export function picture(address: unknown, alt: string): HTMLElement {
  const src = pictureAddress(address);
  if (!src) return h('span', 'picture none', 'No picture');
  const img = h('img', { class: 'picture', alt, width: 48, height: 48, loading: 'lazy', referrerpolicy: 'no-referrer' });
  img.src = src;
  return img;
}

/** A <select> of [value, label] options with one selected. */
export function select(options: Array<[string, string]>, selected: string, props?: Props): HTMLSelectElement {
  const s = h('select', props || null, ...options.map(([v, label]) => h('option', { value: v }, label)));
  s.value = selected;
  return s;
}

/** A labelled form row: label above the control, optional hint below. */
export function field(label: string, control: HTMLElement, help?: string): HTMLElement {
  const id = control.id || (control.id = 'f' + ++uid);
  return h('div', 'form-group', h('label', { for: id }, label), control, help ? hint(help) : null);
}
let uid = 0;

/** A checkbox with its label on the right. */
export function checkbox(label: string, checked: boolean, props?: Props): { row: HTMLElement; input: HTMLInputElement } {
  const input = h('input', { type: 'checkbox', checked, ...(props || {}) });
  return { row: h('label', 'check', input, ' ' + label), input };
}

export function button(text: string, onclick: Listener, cls = ''): HTMLButtonElement {
  return h('button', { type: 'button', class: cls || null, onclick }, text);
}

/** A button that runs `work` through busy() (one code path for every button that calls the server). */
export function act(text: string, work: () => Promise<unknown>, cls = ''): HTMLButtonElement {
  const b = button(text, () => busy(b, work), cls);
  return b;
}

let userStep: ((from: Element) => void) | null = null;
let failed: (e: unknown) => void = () => {};
/**
 * What the page does when the user starts a step from a control (app.ts: an error from an earlier step goes
 * away, and the step's answer is shown next to that control) and when one fails.
 */
export function onStepAndFailure(step: (from: Element) => void, fail: (e: unknown) => void): void {
  userStep = step;
  failed = fail;
}

/**
 * Runs an async action with its button (or box) disabled, so a double click does not call twice. A failure
 * the action does not handle itself reaches the message line instead of vanishing as an unhandled rejection.
 */
export function busy(btn: HTMLButtonElement | HTMLInputElement, work: () => Promise<unknown>): void {
  // A second click while the first runs (the button is disabled from here on) does nothing.
  if (btn.disabled) return;
  if (userStep) userStep(btn);
  btn.disabled = true;
  // Through a Promise so a work function that throws before its first await still re-enables the button.
  new Promise((done) => done(work())).finally(() => (btn.disabled = false)).catch(failed);
}

/** A live region: what it is filled with is read out by screen readers. */
export function live(cls: string, tag: 'div' | 'span' = 'div'): HTMLElement {
  return h(tag, { class: cls, 'aria-live': 'polite' });
}

/** A muted paragraph (loading, empty and could-not-load lines). */
export function muted(...children: Child[]): HTMLElement {
  return h('p', 'muted', ...children);
}

/** The explanation under a control. */
export function hint(...children: Child[]): HTMLElement {
  return h('div', 'hint', ...children);
}

/** A card's first line: its name and a badge (`state`: the badge's colour class, e.g. s-success). */
export function cardHead(name: string, state: string, badge: string): HTMLElement {
  return h('div', 'card-head', h('span', 'name', name), h('span', 'badge ' + state, badge));
}

/** A row of buttons (and their status). */
export function btnRow(...children: Child[]): HTMLDivElement {
  return h('div', 'buttons', ...children);
}

/** An inline confirm step in `out` (HtmlService sidebars have no reliable confirm()): the question, `yes`, and a button that clears it. */
export function confirmIn(out: Element, question: string, yes: HTMLButtonElement, no: string): void {
  fill(
    out,
    h(
      'div',
      'confirm',
      question,
      btnRow(
        yes,
        button(no, () => fill(out)),
      ),
    ),
  );
}
