/**
 * HtmlService: HtmlOutput, templates with scriptlets (<? code ?>, <?= escaped ?>, <?!= raw ?>) that run
 * in the script's own global scope, and files read from next to Code.js (`<name>.html`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import type { RuntimeState } from './execution';
import { gasError } from './realm';
import { requireService } from './permissions';
import { LocalBlob, isBlob } from './blob';

export const SandboxMode = Object.freeze({ EMULATED: 'EMULATED', IFRAME: 'IFRAME', NATIVE: 'NATIVE' });
export const XFrameOptionsMode = Object.freeze({ ALLOWALL: 'ALLOWALL', DEFAULT: 'DEFAULT' });

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export class LocalHtmlOutput {
  private content: string;
  private title = '';
  private width: number | null = null;
  private height: number | null = null;
  sandboxMode: string = SandboxMode.IFRAME;
  xFrameOptionsMode: string = XFrameOptionsMode.DEFAULT;
  private readonly metaTags: Array<{ name: string; content: string }> = [];
  private faviconUrl: string | null = null;
  constructor(
    private readonly state: RuntimeState,
    html = '',
  ) {
    this.content = html;
  }
  getContent(): string {
    return this.content;
  }
  setContent(html: string): this {
    this.content = String(html);
    return this;
  }
  append(html: string): this {
    this.content += String(html);
    return this;
  }
  appendUntrusted(text: string): this {
    this.content += escapeHtml(String(text));
    return this;
  }
  clear(): this {
    this.content = '';
    return this;
  }
  getTitle(): string {
    return this.title;
  }
  setTitle(title: string): this {
    this.title = String(title);
    return this;
  }
  getWidth(): number | null {
    return this.width;
  }
  setWidth(w: number): this {
    this.width = Number(w);
    return this;
  }
  getHeight(): number | null {
    return this.height;
  }
  setHeight(h: number): this {
    this.height = Number(h);
    return this;
  }
  /** All output runs in IFRAME mode nowadays; the setting is accepted and recorded. */
  setSandboxMode(mode: string): this {
    this.sandboxMode = String(mode);
    return this;
  }
  setXFrameOptionsMode(mode: string): this {
    this.xFrameOptionsMode = String(mode);
    return this;
  }
  addMetaTag(name: string, content: string): this {
    this.metaTags.push({ name: String(name), content: String(content) });
    return this;
  }
  getMetaTags(): Array<{ name: string; content: string }> {
    return this.state.realm.Array.from(this.metaTags) as Array<{ name: string; content: string }>;
  }
  setFaviconUrl(url: string): this {
    this.faviconUrl = String(url);
    return this;
  }
  getFaviconUrl(): string | null {
    return this.faviconUrl;
  }
  getBlob(): LocalBlob {
    return new LocalBlob(this.state, Buffer.from(this.content), 'text/html', null);
  }
  getAs(contentType: string): LocalBlob {
    return this.getBlob().getAs(contentType);
  }
}

/** Compiles template text to the body of a function(__t, __esc) returning the HTML (getCode shows it). */
function compile(source: string): string {
  let code = "var __o = '';\n";
  const re = /<\?(!=|=)?([\s\S]*?)\?>/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(source))) {
    if (m.index > last) code += `__o += ${JSON.stringify(source.slice(last, m.index))};\n`;
    const body = m[2].trim();
    if (m[1] === '=') code += `__o += __esc(${body});\n`;
    else if (m[1] === '!=') code += `__o += __str(${body});\n`;
    else code += `${m[2]}\n`;
    last = re.lastIndex;
  }
  if (last < source.length) code += `__o += ${JSON.stringify(source.slice(last))};\n`;
  return code + 'return __o;';
}

function str(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (isBlob(v)) return v.getDataAsString();
  if (v instanceof LocalHtmlOutput) return v.getContent();
  return String(v);
}

/** Methods live on the prototype so that a template's own properties are exactly its variables. */
export class LocalHtmlTemplate {
  constructor(
    private readonly _ctx: { state: RuntimeState; context: () => vm.Context },
    private readonly _source: string,
  ) {
    // Hide the internals from the variables the template sees.
    Object.defineProperty(this, '_ctx', { enumerable: false });
    Object.defineProperty(this, '_source', { enumerable: false });
  }
  getRawContent(): string {
    return this._source;
  }
  getCode(): string {
    return compile(this._source);
  }
  evaluate(): LocalHtmlOutput {
    const vars: Record<string, unknown> = {};
    for (const k of Object.keys(this)) vars[k] = (this as unknown as Record<string, unknown>)[k];
    // Scriptlets see the template's variables first, then the script's globals; sloppy mode for `with`.
    const fn = vm.runInContext(`(function (__t, __esc, __str) { with (__t) { ${compile(this._source)} } })`, this._ctx.context()) as (
      t: Record<string, unknown>,
      esc: (v: unknown) => string,
      s: (v: unknown) => string,
    ) => string;
    const html = fn(vars, (v) => escapeHtml(str(v)), str);
    return new LocalHtmlOutput(this._ctx.state, html);
  }
}

export interface HtmlServiceOptions {
  /** Folder of Code.js: `createHtmlOutputFromFile('Sidebar')` reads `<dir>/Sidebar.html`. */
  dir: string;
  /** The script's vm context (templates run in it). */
  context: () => vm.Context;
}

export function createHtmlService(state: RuntimeState, opts: HtmlServiceOptions) {
  const use = () => requireService(state, 'HtmlService');
  const readFile = (name: string): string => {
    const base = String(name).replace(/\.html$/, '');
    const file = path.join(opts.dir, `${base}.html`);
    // Only files of the project itself (no paths). Google's message for a missing file.
    if (base.includes('/') || base.includes('\\') || !fs.existsSync(file)) throw gasError(state, `No HTML file named ${base} was found.`);
    return fs.readFileSync(file, 'utf8');
  };
  const textOf = (v: unknown) => (isBlob(v) ? v.getDataAsString() : v === undefined ? '' : String(v));
  return {
    SandboxMode,
    XFrameOptionsMode,
    createHtmlOutput(html?: unknown): LocalHtmlOutput {
      use();
      if (html instanceof LocalHtmlTemplate) return html.evaluate();
      return new LocalHtmlOutput(state, textOf(html));
    },
    createHtmlOutputFromFile(filename: string): LocalHtmlOutput {
      use();
      return new LocalHtmlOutput(state, readFile(filename));
    },
    createTemplate(html: unknown): LocalHtmlTemplate {
      use();
      return new LocalHtmlTemplate({ state, context: opts.context }, textOf(html));
    },
    createTemplateFromFile(filename: string): LocalHtmlTemplate {
      use();
      return new LocalHtmlTemplate({ state, context: opts.context }, readFile(filename));
    },
  };
}
