/// <reference types="google-apps-script" />
/** Utilities service: bytes, digests, base64, blobs, CSV, dates, sleep on the virtual clock. */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { RuntimeState } from './execution';
import { gasError, isDate, signatureError, toRealm } from './realm';
import { requireService } from './permissions';
import { LocalBlob, isBlob } from './blob';
import { encodeString, fromBytes, toSignedBytes } from './bytes';
import { formatSimpleDate } from './dateformat';

export const SLEEP_MAX_MS = 300000;

export const Charset = Object.freeze({ US_ASCII: 'US-ASCII', UTF_8: 'UTF-8' });
export const DigestAlgorithm = Object.freeze({
  MD2: 'MD2',
  MD5: 'MD5',
  SHA_1: 'SHA_1',
  SHA_256: 'SHA_256',
  SHA_384: 'SHA_384',
  SHA_512: 'SHA_512',
});
export const MacAlgorithm = Object.freeze({
  HMAC_MD5: 'HMAC_MD5',
  HMAC_SHA_1: 'HMAC_SHA_1',
  HMAC_SHA_256: 'HMAC_SHA_256',
  HMAC_SHA_384: 'HMAC_SHA_384',
  HMAC_SHA_512: 'HMAC_SHA_512',
});

/** Apps Script's Charset enum values are these strings here (the typings model them as an enum). */
type CharsetArg = string | GoogleAppsScript.Utilities.Charset;

const NODE_HASH: Record<string, string> = { MD5: 'md5', SHA_1: 'sha1', SHA_256: 'sha256', SHA_384: 'sha384', SHA_512: 'sha512' };

/** A string (encoded in charset) or a byte array, as Apps Script's overloads take them. */
function input(state: RuntimeState, v: unknown, charset?: CharsetArg): Buffer {
  if (typeof v === 'string') return encodeString(v, charset === undefined ? undefined : String(charset));
  if (Array.isArray(v)) return fromBytes(v as number[]);
  if (isBlob(v)) return v._data;
  throw gasError(state, `Invalid argument: ${String(v)}`);
}

function b64Encode(state: RuntimeState, data: unknown, charset: CharsetArg | undefined, webSafe: boolean): string {
  const s = input(state, data, charset).toString('base64');
  return webSafe ? s.replace(/\+/g, '-').replace(/\//g, '_') : s;
}

function b64Decode(state: RuntimeState, s: unknown, webSafe: boolean): Buffer {
  const str = String(s).replace(/\s+/g, '');
  const ok = webSafe ? /^[A-Za-z0-9_-]*={0,2}$/ : /^[A-Za-z0-9+/]*={0,2}$/;
  // Java's decoder rejects characters outside the alphabet and impossible lengths. (message chosen: Google-like)
  if (!ok.test(str) || str.replace(/=+$/, '').length % 4 === 1) throw gasError(state, 'Could not decode string.');
  return Buffer.from(webSafe ? str.replace(/-/g, '+').replace(/_/g, '/') : str, 'base64');
}

/** Java-style String.format subset used by Utilities.formatString and Logger.log(format, ...). */
export function formatString(template: string, args: unknown[]): string {
  let next = 0;
  return String(template).replace(
    /%([-+ 0#,]*)(\d+)?(?:\.(\d+))?([sdifxXoeEgcb%])/g,
    (whole, flags: string, width: string | undefined, prec: string | undefined, conv: string) => {
      if (conv === '%') return '%';
      const v = args[next++];
      let s: string;
      switch (conv) {
        case 'd':
        case 'i':
          s = String(Math.trunc(Number(v)));
          break;
        case 'f':
          s = Number(v).toFixed(prec === undefined ? 6 : Number(prec));
          break;
        case 'e':
        case 'E':
          s = Number(v).toExponential(prec === undefined ? 6 : Number(prec));
          if (conv === 'E') s = s.toUpperCase();
          break;
        case 'g':
          s = Number(v).toPrecision(prec === undefined ? 6 : Number(prec));
          break;
        case 'x':
          s = Math.trunc(Number(v)).toString(16);
          break;
        case 'X':
          s = Math.trunc(Number(v)).toString(16).toUpperCase();
          break;
        case 'o':
          s = Math.trunc(Number(v)).toString(8);
          break;
        case 'c':
          s = typeof v === 'number' ? String.fromCharCode(v) : String(v).charAt(0);
          break;
        case 'b':
          s = String(Boolean(v));
          break;
        default:
          s = typeof v === 'object' && v !== null && !isDate(v) ? JSON.stringify(v) : String(v);
          if (prec !== undefined) s = s.slice(0, Number(prec));
      }
      if (flags.includes('+') && /^[0-9]/.test(s) && 'dfieEg'.includes(conv)) s = '+' + s;
      if (flags.includes(',') && 'df'.includes(conv)) {
        const [i, f] = s.split('.');
        s = i.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (f !== undefined ? '.' + f : '');
      }
      const w = width ? Number(width) : 0;
      if (s.length < w) {
        if (flags.includes('-')) s = s.padEnd(w);
        else if (flags.includes('0') && 'dfieExXo'.includes(conv))
          s = s[0] === '-' || s[0] === '+' ? s[0] + s.slice(1).padStart(w - 1, '0') : s.padStart(w, '0');
        else s = s.padStart(w);
      }
      void whole;
      return s;
    },
  );
}

/** RFC 4180 CSV with a one-character delimiter; quoted fields may hold delimiters, quotes ("") and newlines. */
export function parseCsvText(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const s = String(text);
  let sawAny = false;
  while (i < s.length) {
    const c = s[i];
    sawAny = true;
    if (quoted) {
      if (c === '"') {
        if (s[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      i++;
      continue;
    }
    if (c === delimiter) {
      row.push(field);
      field = '';
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      sawAny = false;
      i += c === '\r' && s[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    field += c;
    i++;
  }
  if (sawAny || field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Utilities' digests, signatures and base64 (each answers Java-style signed bytes, -128..127, or text). */
function byteMethods(state: RuntimeState, use: () => void, bytesOut: (b: Buffer) => number[]) {
  return {
    computeDigest(algorithm: string | GoogleAppsScript.Utilities.DigestAlgorithm, value: unknown, charset?: CharsetArg): number[] {
      use();
      const alg = NODE_HASH[String(algorithm)];
      if (!alg) throw gasError(state, `Unsupported digest algorithm: ${String(algorithm)}`);
      return bytesOut(
        createHash(alg)
          .update(input(state, value, charset))
          .digest(),
      );
    },
    computeHmacSignature(
      algorithm: string | GoogleAppsScript.Utilities.MacAlgorithm,
      value: unknown,
      key: unknown,
      charset?: CharsetArg,
    ): number[] {
      use();
      const alg = NODE_HASH[String(algorithm).replace(/^HMAC_/, '')];
      if (!alg) throw gasError(state, `Unsupported MAC algorithm: ${String(algorithm)}`);
      return bytesOut(
        createHmac(alg, input(state, key, charset))
          .update(input(state, value, charset))
          .digest(),
      );
    },
    /** Java-style signed bytes, -128..127. */
    computeHmacSha256Signature(value: unknown, key: unknown, charset?: CharsetArg): number[] {
      use();
      return bytesOut(
        createHmac('sha256', input(state, key, charset))
          .update(input(state, value, charset))
          .digest(),
      );
    },
    base64Encode(data: unknown, charset?: CharsetArg): string {
      use();
      return b64Encode(state, data, charset, false);
    },
    base64EncodeWebSafe(data: unknown, charset?: CharsetArg): string {
      use();
      return b64Encode(state, data, charset, true);
    },
    base64Decode(encoded: string, _charset?: CharsetArg): number[] {
      use();
      return bytesOut(b64Decode(state, encoded, false));
    },
    base64DecodeWebSafe(encoded: string, _charset?: CharsetArg): number[] {
      use();
      return bytesOut(b64Decode(state, encoded, true));
    },
  };
}

export function createUtilities(state: RuntimeState, opts: { scriptTimeZone: () => string }) {
  const use = () => requireService(state, 'Utilities');
  const bytesOut = (b: Buffer) => toSignedBytes(state.realm, b);
  return {
    Charset,
    DigestAlgorithm,
    MacAlgorithm,
    /** Advances the virtual clock; the execution's time limit applies while sleeping. */
    sleep(milliseconds: number): void {
      use();
      const ms = Number(milliseconds);
      // (message chosen: Google documents the maximum, not the wording)
      if (!(ms <= SLEEP_MAX_MS)) throw gasError(state, `Argument too large: milliseconds (maximum ${SLEEP_MAX_MS})`);
      if (ms > 0) state.charge(ms);
    },
    ...byteMethods(state, use, bytesOut),
    newBlob(data: unknown, contentType?: string, name?: string): LocalBlob {
      use();
      const buf = data === undefined ? Buffer.alloc(0) : typeof data === 'string' ? encodeString(data) : input(state, data);
      return new LocalBlob(state, Buffer.from(buf), contentType ?? null, name ?? null);
    },
    parseCsv(csv: string, delimiter?: string): string[][] {
      use();
      if (delimiter !== undefined && String(delimiter).length !== 1) throw gasError(state, `Invalid argument: delimiter`);
      return state.realm.Array.from(parseCsvText(String(csv), delimiter === undefined ? ',' : String(delimiter)), (r) =>
        state.realm.Array.from(r),
      ) as string[][];
    },
    formatDate(date: Date, timeZone: string, format: string): string {
      use();
      if (!isDate(date) || typeof timeZone !== 'string' || typeof format !== 'string')
        throw signatureError(state, 'Utilities.formatDate', [...arguments]);
      try {
        return formatSimpleDate(date, timeZone, format);
      } catch (e) {
        throw gasError(state, (e as Error).message);
      }
    },
    formatString(template: string, ...args: unknown[]): string {
      use();
      return formatString(template, args);
    },
    getUuid(): string {
      use();
      return randomUUID();
    },
    /**
     * As recorded on Google (gas-fakes test/testutilities.js "utilities gzipping"): the archive is named
     * "archive.gz" unless named, typed application/x-gzip; ungzip names its blob after the archive
     * without ".gz" and gives it no content type.
     */
    gzip(blob: LocalBlob, name?: string): LocalBlob {
      use();
      if (!isBlob(blob)) throw signatureError(state, 'Utilities.gzip', [blob]);
      return new LocalBlob(state, gzipSync(blob._data), 'application/x-gzip', name ?? 'archive.gz');
    },
    ungzip(blob: LocalBlob): LocalBlob {
      use();
      if (!isBlob(blob)) throw signatureError(state, 'Utilities.ungzip', [blob]);
      let data: Buffer;
      try {
        data = gunzipSync(blob._data);
      } catch {
        throw gasError(state, 'Could not decompress gzip.'); // (message chosen)
      }
      return new LocalBlob(state, data, null, (blob.getName() ?? 'archive').replace(/\.gz$/, ''));
    },
    /**
     * Deprecated on Google's Utilities reference page ("Deprecated methods": jsonParse, jsonStringify)
     * but still there; they do what JSON.parse / JSON.stringify do. A parse error's wording is chosen.
     */
    jsonParse(jsonString: string): unknown {
      use();
      let v: unknown;
      try {
        v = JSON.parse(String(jsonString));
      } catch (e) {
        throw gasError(state, (e as Error).message);
      }
      return toRealm(state.realm, v);
    },
    jsonStringify(obj: unknown): string {
      use();
      return JSON.stringify(obj);
    },
  };
}
