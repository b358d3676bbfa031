/**
 * Apps Script represents binary data as Java byte[]: arrays of SIGNED numbers -128..127.
 * Scripts may also pass unsigned 0..255 numbers; both are accepted on the way in.
 */
import type { Realm } from './execution';

export type Charset = 'UTF-8' | 'US-ASCII' | string;

export function toSignedBytes(realm: Realm, buf: Uint8Array): number[] {
  const out = new realm.Array(buf.length) as number[];
  for (let i = 0; i < buf.length; i++) out[i] = buf[i] > 127 ? buf[i] - 256 : buf[i];
  return out;
}

export function isByteArray(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((b) => typeof b === 'number' && Number.isInteger(b) && b >= -128 && b <= 255);
}

export function fromBytes(bytes: ArrayLike<number>): Buffer {
  const buf = Buffer.alloc(bytes.length);
  for (let i = 0; i < bytes.length; i++) buf[i] = bytes[i] & 0xff;
  return buf;
}

/** Node's name for an Apps Script charset ("UTF-8", "US-ASCII", "ISO-8859-1", ...). */
export function nodeEncoding(charset: string | undefined): BufferEncoding {
  const c = (charset ?? 'UTF-8').toString().toUpperCase().replace(/_/g, '-');
  if (c === 'UTF-8' || c === 'UTF8') return 'utf8';
  if (c === 'US-ASCII' || c === 'ASCII') return 'ascii';
  if (c === 'ISO-8859-1' || c === 'LATIN1') return 'latin1';
  if (c === 'UTF-16LE') return 'utf16le';
  throw new Error(`Unsupported charset: ${charset}`);
}

export function encodeString(s: string, charset?: string): Buffer {
  return Buffer.from(String(s), nodeEncoding(charset));
}

export function decodeBytes(buf: Uint8Array, charset?: string): string {
  return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString(nodeEncoding(charset));
}
