/**
 * SpreadsheetApp.getUi(): menus, alerts, prompts, sidebars and dialogs. Nothing is shown; every
 * call is recorded in state.uiEvents, and alerts/prompts take their answer from state.uiAnswers.
 */
import { requireScope } from '../scopes';
import type { UiEvent } from '../execution';
import { Ctx } from './context';

export const ButtonSet = { OK: 'OK', OK_CANCEL: 'OK_CANCEL', YES_NO: 'YES_NO', YES_NO_CANCEL: 'YES_NO_CANCEL' } as const;
export const Button = { CLOSE: 'CLOSE', OK: 'OK', CANCEL: 'CANCEL', YES: 'YES', NO: 'NO' } as const;

const BUTTONS: Record<string, string[]> = {
  OK: ['OK'],
  OK_CANCEL: ['OK', 'CANCEL'],
  YES_NO: ['YES', 'NO'],
  YES_NO_CANCEL: ['YES', 'NO', 'CANCEL'],
};

interface HtmlLike {
  getContent(): string;
  getTitle?(): string;
}

type MenuItem = { caption: string; functionName: string } | { sub: MenuImpl } | null;

export class MenuImpl {
  /** The class name, as every Apps Script object's toString() gives it. */
  toString(): string {
    return 'Menu';
  }
  readonly items: MenuItem[] = [];
  constructor(
    private readonly ctx: Ctx,
    readonly name: string,
  ) {}
  addItem(caption: string, functionName: string): MenuImpl {
    this.ctx.call();
    this.items.push({ caption: String(caption), functionName: String(functionName) });
    return this;
  }
  addSeparator(): MenuImpl {
    this.ctx.call();
    this.items.push(null);
    return this;
  }
  addSubMenu(menu: MenuImpl): MenuImpl {
    this.ctx.call();
    if (!(menu instanceof MenuImpl)) throw this.ctx.error("The parameters don't match the method signature for Ui.Menu.addSubMenu.");
    this.items.push({ sub: menu });
    return this;
  }
  /** Chosen: sub-menu items are recorded flat with the caption "Sub menu > Item". */
  addToUi(): void {
    this.ctx.call();
    const flat = (m: MenuImpl, prefix: string): Array<{ caption: string; functionName: string } | null> =>
      m.items.flatMap((it) =>
        it === null
          ? [null]
          : 'sub' in it
            ? flat(it.sub, `${prefix}${it.sub.name} > `)
            : [{ caption: prefix + it.caption, functionName: it.functionName }],
      );
    this.ctx.state.uiEvents.push({ kind: 'menu', name: this.name, items: flat(this, '') });
  }
}

class PromptResponseImpl {
  constructor(
    private readonly text: string,
    private readonly button: string,
  ) {}
  getResponseText(): string {
    return this.text;
  }
  getSelectedButton(): string {
    return this.button;
  }
}

export class UiImpl {
  /** The class name, as every Apps Script object's toString() gives it. */
  toString(): string {
    return 'Ui';
  }
  readonly ButtonSet = ButtonSet;
  readonly Button = Button;
  constructor(private readonly ctx: Ctx) {}

  createMenu(caption: string): MenuImpl {
    this.ctx.call();
    return new MenuImpl(this.ctx, String(caption));
  }
  /** Chosen: the add-on menu is recorded under hooks.addonMenuName, default "Add-on". */
  createAddonMenu(): MenuImpl {
    this.ctx.call();
    return new MenuImpl(this.ctx, this.ctx.hooks.addonMenuName ?? 'Add-on');
  }

  /** The next scripted answer, checked against the buttons shown (the user may also close the dialog). */
  private answer(kind: string, buttons: string): { button: string; text: string; scripted: boolean } {
    const next = this.ctx.state.uiAnswers.shift();
    if (!next) return { button: '', text: '', scripted: false };
    const allowed = [...BUTTONS[buttons], 'CLOSE'];
    if (!allowed.includes(next.button))
      throw new Error(`Scripted ${kind} answer "${next.button}" is not one of the buttons shown (${allowed.join(', ')}).`);
    return { button: next.button, text: next.text ?? '', scripted: true };
  }

  private args(method: string, a: unknown, b: unknown, c: unknown): { title: string; prompt: string; buttons: string } {
    let title = '';
    let prompt: unknown;
    let buttons: unknown = ButtonSet.OK;
    if (c !== undefined) {
      title = String(a);
      prompt = b;
      buttons = c;
    } else if (b !== undefined) {
      prompt = a;
      buttons = b;
    } else prompt = a;
    const bs = String(buttons);
    if (!BUTTONS[bs]) throw this.ctx.error(`The parameters don't match the method signature for Ui.${method}.`);
    return { title, prompt: String(prompt ?? ''), buttons: bs };
  }

  /**
   * alert(prompt), alert(prompt, buttons), alert(title, prompt, buttons).
   * Chosen: with no scripted answer queued, the user presses the first button of the set.
   */
  alert(a: string, b?: unknown, c?: unknown): string {
    this.ctx.call();
    const { title, prompt, buttons } = this.args('alert', a, b, c);
    const ans = this.answer('alert', buttons);
    const button = ans.scripted ? ans.button : BUTTONS[buttons][0];
    this.ctx.state.uiEvents.push({ kind: 'alert', title, prompt, buttons, answer: button });
    return button;
  }

  /**
   * prompt(prompt), prompt(prompt, buttons), prompt(title, prompt, buttons).
   * Chosen: with no scripted answer queued, the user cancels (CANCEL, or CLOSE when the set has no CANCEL) and types nothing.
   */
  prompt(a: string, b?: unknown, c?: unknown): PromptResponseImpl {
    this.ctx.call();
    const { title, prompt, buttons } = this.args('prompt', a, b, c);
    const ans = this.answer('prompt', buttons);
    const button = ans.scripted ? ans.button : BUTTONS[buttons].includes('CANCEL') ? 'CANCEL' : 'CLOSE';
    const text = ans.scripted ? ans.text : '';
    this.ctx.state.uiEvents.push({ kind: 'prompt', title, prompt, buttons, answer: button, text });
    return new PromptResponseImpl(text, button);
  }

  private html(method: string, out: unknown): { html: string; title: string } {
    const h = out as HtmlLike;
    if (!h || typeof h.getContent !== 'function') throw this.ctx.error(`The parameters don't match the method signature for Ui.${method}.`);
    return { html: h.getContent(), title: typeof h.getTitle === 'function' ? h.getTitle() : '' };
  }

  showSidebar(userInterface: unknown): void {
    requireScope(this.ctx.state, 'Ui.showSidebar');
    this.ctx.call();
    const { html, title } = this.html('showSidebar', userInterface);
    this.push({ kind: 'sidebar', title, html });
  }
  showModalDialog(userInterface: unknown, title: string): void {
    requireScope(this.ctx.state, 'Ui.showModalDialog');
    this.ctx.call();
    const { html } = this.html('showModalDialog', userInterface);
    this.push({ kind: 'dialog', title: String(title), html, modal: true });
  }
  showModelessDialog(userInterface: unknown, title: string): void {
    requireScope(this.ctx.state, 'Ui.showModelessDialog');
    this.ctx.call();
    const { html } = this.html('showModelessDialog', userInterface);
    this.push({ kind: 'dialog', title: String(title), html, modal: false });
  }
  private push(e: UiEvent): void {
    this.ctx.state.uiEvents.push(e);
  }
}
