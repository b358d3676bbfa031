/**
 * Display values: how Sheets shows a stored value under a number format (en_US locale).
 * Supports Automatic/General, 0, 0.00, #,##0(.00), currency with quoted or bracketed symbols,
 * percent, scientific, '@' and the common date/time patterns.
 */
import { AUTOMATIC_FORMAT, isDateFormat, serialParts, Stored } from './values';

export function isAutomatic(fmt: string | undefined): boolean {
  return !fmt || fmt === AUTOMATIC_FORMAT || fmt.toLowerCase() === 'general';
}

/** Splits a format into its ';' sections, respecting quotes and escapes. */
function sections(fmt: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q = false;
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i];
    if (ch === '\\' && !q) {
      cur += ch + (fmt[i + 1] ?? '');
      i++;
      continue;
    }
    if (ch === '"') q = !q;
    if (ch === ';' && !q) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  out.push(cur);
  return out;
}

/**
 * Automatic format. Chosen (Sheets documents no rule): integers of 12 or more digits show in
 * scientific notation with 6 significant digits (5012345678901 -> 5.01235E+12); other numbers show
 * at most 10 significant digits.
 */
export function formatGeneral(n: number): string {
  if (!Number.isFinite(n)) return '#NUM!';
  if (n === 0) return '0';
  const a = Math.abs(n);
  if (a >= 1e11 || a < 1e-9) return scientific(n, 5, 0);
  if (Number.isInteger(n)) return String(n);
  const intDigits = Math.floor(Math.log10(a)) + 1;
  const precision = Math.max(10, intDigits);
  // Most numbers (prices, ratios) have no more digits than are shown: their shortest numeral is the
  // answer, without rounding through toPrecision (a large sheet formats millions of them).
  const shortest = String(n);
  if (shortest.length - (n < 0 ? 2 : 1) <= precision && !shortest.includes('e')) return shortest;
  let s = Number(n.toPrecision(precision)).toString();
  if (s.includes('e')) s = scientific(n, 5, 0);
  return s;
}

/** Scientific notation like Sheets: 5.01235E+12 (maxDec decimals, at least minDec). */
function scientific(n: number, maxDec: number, minDec: number): string {
  let [m, e] = n.toExponential(maxDec).split('e');
  if (m.includes('.')) {
    let [ip, fp] = m.split('.');
    fp = fp.replace(/0+$/, '');
    while (fp.length < minDec) fp += '0';
    m = fp ? `${ip}.${fp}` : ip;
  }
  const exp = Number(e);
  return `${m}E${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

export function formatValue(v: Stored | undefined, fmt: string | undefined): string {
  if (v === undefined || v === '') return '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'string') {
    if (fmt && !isAutomatic(fmt)) {
      const secs = sections(fmt);
      if (secs.length >= 4) return renderLiteral(secs[3], v);
      if (secs.length === 1 && secs[0].includes('@')) return renderLiteral(secs[0], v);
    }
    return v;
  }
  if (isAutomatic(fmt) || fmt === '@') return formatGeneral(v);
  const secs = sections(fmt!);
  let sec = secs[0];
  let n = v;
  let forceSign = true;
  if (secs.length >= 2 && v < 0) {
    sec = secs[1];
    n = -v;
    forceSign = false;
  } else if (secs.length >= 3 && v === 0) {
    sec = secs[2];
  }
  sec = sec.replace(/\[(Red|Black|Blue|Green|White|Yellow|Cyan|Magenta|Color\d+)\]/gi, '');
  if (isDateFormat(sec)) return formatDate(n, sec);
  return formatNumber(n, sec, forceSign);
}

/** Renders the text section of a format with '@' replaced by the text. */
function renderLiteral(sec: string, text: string): string {
  let out = '';
  for (let i = 0; i < sec.length; i++) {
    const ch = sec[i];
    if (ch === '"') {
      const j = sec.indexOf('"', i + 1);
      out += sec.slice(i + 1, j < 0 ? sec.length : j);
      i = j < 0 ? sec.length : j;
    } else if (ch === '\\') out += sec[++i] ?? '';
    else if (ch === '@') out += text;
    else out += ch;
  }
  return out;
}

type Tok = { t: 'lit'; s: string } | { t: 'ph'; s: string } | { t: 'dot' } | { t: 'comma' } | { t: 'pct' } | { t: 'exp'; s: string };

function tokenizeNumber(sec: string): Tok[] {
  const toks: Tok[] = [];
  for (let i = 0; i < sec.length; i++) {
    const ch = sec[i];
    if (ch === '"') {
      const j = sec.indexOf('"', i + 1);
      toks.push({ t: 'lit', s: sec.slice(i + 1, j < 0 ? sec.length : j) });
      i = j < 0 ? sec.length : j;
    } else if (ch === '\\') toks.push({ t: 'lit', s: sec[++i] ?? '' });
    else if (ch === '[') {
      // [$€-407] currency tags show their symbol; other brackets are dropped.
      const j = sec.indexOf(']', i);
      const inner = sec.slice(i + 1, j < 0 ? sec.length : j);
      if (inner.startsWith('$')) toks.push({ t: 'lit', s: inner.slice(1).split('-')[0] });
      i = j < 0 ? sec.length : j;
    } else if (ch === '_')
      i++; // space the width of the next char: dropped
    else if (ch === '*')
      i++; // fill: dropped
    else if (ch === '0' || ch === '#' || ch === '?') toks.push({ t: 'ph', s: ch });
    else if (ch === '.') toks.push({ t: 'dot' });
    else if (ch === ',') toks.push({ t: 'comma' });
    else if (ch === '%') toks.push({ t: 'pct' });
    else if ((ch === 'E' || ch === 'e') && (sec[i + 1] === '+' || sec[i + 1] === '-')) {
      toks.push({ t: 'exp', s: sec[i + 1] });
      i++;
    } else toks.push({ t: 'lit', s: ch });
  }
  return toks;
}

function groupThousands(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function formatNumber(v: number, sec: string, forceSign: boolean): string {
  const toks = tokenizeNumber(sec);
  let n = v;
  for (const t of toks) if (t.t === 'pct') n *= 100;
  const first = toks.findIndex((t) => t.t === 'ph' || t.t === 'dot');
  if (first < 0) return (forceSign && v < 0 ? '-' : '') + toks.map((t) => (t.t === 'lit' ? t.s : t.t === 'pct' ? '%' : '')).join('');
  const expIdx = toks.findIndex((t) => t.t === 'exp');
  const dotIdx = toks.findIndex((t) => t.t === 'dot');
  const numEnd = expIdx >= 0 ? expIdx : toks.length;
  let intMin = 0;
  let fracMin = 0;
  let fracMax = 0;
  let grouping = false;
  let lastPh = -1;
  for (let i = 0; i < numEnd; i++) {
    const t = toks[i];
    if (t.t === 'ph') {
      lastPh = i;
      if (dotIdx >= 0 && i > dotIdx) {
        fracMax++;
        if (t.s === '0') fracMin = fracMax;
      } else if (t.s === '0') intMin++;
    }
  }
  for (let i = 0; i < numEnd; i++) {
    const t = toks[i];
    if (t.t === 'comma' && (dotIdx < 0 || i < dotIdx) && i < lastPh) grouping = true;
  }
  const neg = n < 0;
  const a = Math.abs(n);
  let body: string;
  if (expIdx >= 0) {
    const expDigits = toks.slice(expIdx + 1).filter((t) => t.t === 'ph').length;
    let [m, e] = a.toExponential(fracMax).split('e');
    if (m.includes('.')) {
      let [ip, fp] = m.split('.');
      fp = fp.replace(/0+$/, '');
      while (fp.length < fracMin) fp += '0';
      m = fp ? `${ip}.${fp}` : ip;
    }
    const ex = Number(e);
    const sign = ex < 0 ? '-' : (toks[expIdx] as { s: string }).s === '+' ? '+' : '';
    body = `${m}E${sign}${String(Math.abs(ex)).padStart(Math.max(expDigits, 1), '0')}`;
  } else {
    const fixed = a.toFixed(fracMax);
    let [ip, fp = ''] = fixed.split('.');
    fp = fp.slice(0, fracMax);
    while (fp.length > fracMin && fp.endsWith('0')) fp = fp.slice(0, -1);
    ip = ip.replace(/^0+/, '');
    while (ip.length < intMin) ip = '0' + ip;
    if (grouping) ip = groupThousands(ip);
    body = ip + (fp || (dotIdx >= 0 && fracMax > 0 && fracMin > 0) ? '.' + fp : '');
    if (body === '') body = '0';
    if (body.startsWith('.')) body = (intMin > 0 ? '0' : '') + body;
    if (fixed.replace(/[0.]/g, '') === '' && !fp) body = body || '0';
  }
  // Literals keep their place before/after the number; the number goes where its first placeholder was.
  let out = '';
  let placed = false;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.t === 'lit') out += t.s;
    else if (t.t === 'pct') out += '%';
    else if (!placed && i === first) {
      out += body;
      placed = true;
    }
  }
  const isZero = Number(body.replace(/[^0-9.]/g, '')) === 0 && expIdx < 0;
  return (neg && forceSign && !isZero ? '-' : '') + out;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type DTok = { k: string; s?: string };

function tokenizeDate(sec: string): DTok[] {
  const toks: DTok[] = [];
  const lower = sec.toLowerCase();
  for (let i = 0; i < sec.length; ) {
    const ch = sec[i];
    if (ch === '"') {
      const j = sec.indexOf('"', i + 1);
      toks.push({ k: 'lit', s: sec.slice(i + 1, j < 0 ? sec.length : j) });
      i = j < 0 ? sec.length : j + 1;
      continue;
    }
    if (ch === '\\') {
      toks.push({ k: 'lit', s: sec[i + 1] ?? '' });
      i += 2;
      continue;
    }
    if (lower.startsWith('am/pm', i)) {
      toks.push({ k: 'ampm' });
      i += 5;
      continue;
    }
    if (lower.startsWith('a/p', i)) {
      toks.push({ k: 'ap' });
      i += 3;
      continue;
    }
    const el = /^\[(h+|m+|s+)\]/i.exec(sec.slice(i));
    if (el) {
      toks.push({ k: 'el' + el[1][0].toLowerCase(), s: el[1] });
      i += el[0].length;
      continue;
    }
    const run = /^(y+|m+|d+|h+|s+)/i.exec(sec.slice(i));
    if (run) {
      toks.push({ k: run[1][0].toLowerCase(), s: run[1] });
      i += run[1].length;
      continue;
    }
    const frac = /^\.(0+)/.exec(sec.slice(i));
    if (frac && toks.length && toks[toks.length - 1].k === 's') {
      toks.push({ k: 'frac', s: frac[1] });
      i += frac[0].length;
      continue;
    }
    if (ch === '[') {
      const j = sec.indexOf(']', i);
      i = j < 0 ? sec.length : j + 1;
      continue;
    }
    toks.push({ k: 'lit', s: ch });
    i++;
  }
  // 'm' means minutes right after an hour token or right before a seconds token.
  const isTime = (t: DTok | undefined) => !!t && t.k !== 'lit';
  for (let i = 0; i < toks.length; i++) {
    if (toks[i].k !== 'm') continue;
    let p = i - 1;
    while (p >= 0 && !isTime(toks[p])) p--;
    let q = i + 1;
    while (q < toks.length && !isTime(toks[q])) q++;
    if ((p >= 0 && (toks[p].k === 'h' || toks[p].k === 'elh')) || (q < toks.length && (toks[q].k === 's' || toks[q].k === 'els')))
      toks[i].k = 'min';
  }
  return toks;
}

function formatDate(serial: number, sec: string): string {
  const toks = tokenizeDate(sec);
  const twelve = toks.some((t) => t.k === 'ampm' || t.k === 'ap');
  const roundedSerial = Math.round(serial * 86400) / 86400;
  const p = serialParts(roundedSerial);
  const pad = (x: number, n: number) => String(x).padStart(n, '0');
  let out = '';
  for (const t of toks) {
    const len = t.s?.length ?? 0;
    switch (t.k) {
      case 'lit':
        out += t.s;
        break;
      case 'y':
        out += len <= 2 ? pad(p.y % 100, 2) : String(p.y);
        break;
      case 'm':
        out +=
          len === 1
            ? String(p.mo)
            : len === 2
              ? pad(p.mo, 2)
              : len === 3
                ? MONTHS[p.mo - 1].slice(0, 3)
                : len === 5
                  ? MONTHS[p.mo - 1][0]
                  : MONTHS[p.mo - 1];
        break;
      case 'd':
        out += len === 1 ? String(p.d) : len === 2 ? pad(p.d, 2) : len === 3 ? DAYS[p.wd].slice(0, 3) : DAYS[p.wd];
        break;
      case 'h': {
        const h = twelve ? ((p.h + 11) % 12) + 1 : p.h;
        out += len >= 2 ? pad(h, 2) : String(h);
        break;
      }
      case 'min':
        out += len >= 2 ? pad(p.mi, 2) : String(p.mi);
        break;
      case 's':
        out += len >= 2 ? pad(p.s, 2) : String(p.s);
        break;
      case 'frac':
        out += '.' + pad(Math.floor((p.ms / 1000) * 10 ** len), len);
        break;
      case 'elh':
        out += String(Math.floor(roundedSerial * 24));
        break;
      case 'elm':
        out += String(Math.floor(roundedSerial * 1440));
        break;
      case 'els':
        out += String(Math.round(roundedSerial * 86400));
        break;
      case 'ampm':
        out += p.h < 12 ? 'AM' : 'PM';
        break;
      case 'ap':
        out += p.h < 12 ? 'A' : 'P';
        break;
    }
  }
  return out;
}
