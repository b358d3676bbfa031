/**
 * Alerts and prompts answered by the person at the playground page. In Sheets, `Ui.alert` and
 * `Ui.prompt` hold the script until the user presses a button; the local runtime takes the answer
 * from its queue of scripted answers (`state.uiAnswers`, emulator/gas/spreadsheet/ui.ts). This
 * playground-only extension wraps the two methods: before the runtime's own method runs, it shows
 * the dialog in the page (through `ask`, which blocks until the page answers) and queues the
 * answer, so the runtime's method records and returns it exactly as for a scripted answer.
 * Nothing of emulator/ is changed; only this process's copy of the class is wrapped.
 */
import { ButtonSet, UiImpl } from '../../emulator/gas/spreadsheet/ui';

export interface Question {
  kind: 'alert' | 'prompt';
  title: string;
  prompt: string;
  /** A ButtonSet name: OK, OK_CANCEL, YES_NO, YES_NO_CANCEL. */
  buttons: string;
}

type Ask = (q: Question) => { button: string; text: string };

let current: Ask | null = null;
let wrapped = false;

/** The arguments as Ui.alert/prompt read them: (prompt), (prompt, buttons), (title, prompt, buttons). */
function question(kind: Question['kind'], a: unknown, b: unknown, c: unknown): Question | null {
  let title = '';
  let prompt: unknown = a;
  let buttons: unknown = ButtonSet.OK;
  if (c !== undefined) {
    title = String(a);
    prompt = b;
    buttons = c;
  } else if (b !== undefined) buttons = b;
  // Anything else is refused by the runtime's own method with Google's message: not shown.
  if (!Object.values(ButtonSet).includes(String(buttons) as never)) return null;
  return { kind, title, prompt: String(prompt ?? ''), buttons: String(buttons) };
}

function wrap(kind: Question['kind']): void {
  const proto = UiImpl.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const original = proto[kind];
  proto[kind] = function (this: { ctx: { state: { uiAnswers: { button: string; text?: string }[] } } }, a, b, c) {
    const q = current && question(kind, a, b, c);
    if (q && current) this.ctx.state.uiAnswers.push(current(q));
    return original.call(this, a, b, c);
  };
}

/** From now on dialogs are asked through `ask`; the returned function stops that. */
export function askWith(ask: Ask): () => void {
  if (!wrapped) {
    wrap('alert');
    wrap('prompt');
    wrapped = true;
  }
  current = ask;
  return () => {
    if (current === ask) current = null;
  };
}
