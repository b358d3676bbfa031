/**
 * Logger and console, both captured into the runtime's event log (UiEvent kind 'log') so tests can
 * read everything the script logged (for example, that an API key never reaches the logs).
 */
import { formatWithOptions } from 'node:util';
import type { RuntimeState } from './execution';
import { formatString } from './utilities';
import { isDate, isPlainObject } from './realm';

function show(v: unknown): string {
  if (typeof v === 'string') return v;
  if (isDate(v)) return v.toString();
  if (Array.isArray(v) || isPlainObject(v)) {
    try {
      return JSON.stringify(v);
    } catch {
      return String(v);
    }
  }
  return String(v);
}

export function createLogging(state: RuntimeState) {
  /** Lines of the running execution's Logger (Logger.getLog). */
  let current: string[] = [];
  let owner: unknown = null;
  /** Logger lines go to getLog(); console lines only to the execution log, as in Apps Script. */
  const record = (message: string, level: string, logger = false) => {
    const e = state.current;
    if (owner !== e) {
      owner = e;
      current = [];
    }
    if (logger) current.push(message);
    state.uiEvents.push({ kind: 'log', message: level === 'info' ? message : `[${level}] ${message}` });
  };
  const Logger = {
    log(format: unknown, ...values: unknown[]) {
      const msg = values.length > 0 && typeof format === 'string' ? formatString(format, values) : show(format);
      record(msg, 'info', true);
      return Logger;
    },
    getLog(): string {
      return owner === state.current ? current.join('\n') : '';
    },
    clear(): void {
      current = [];
    },
  };
  const out =
    (level: string) =>
    (...args: unknown[]) => {
      const msg = typeof args[0] === 'string' ? formatWithOptions({ breakLength: Infinity }, ...args) : args.map(show).join(' ');
      record(msg, level);
    };
  const console = { log: out('info'), info: out('info'), warn: out('warn'), error: out('error'), debug: out('debug') };
  return { Logger, console };
}
