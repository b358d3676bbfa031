/**
 * Files derived from sources and kept between runs under node_modules/.cache/scan-service, so that a
 * start of the local service does not redo work it has done before (the merged API description
 * here, the checked catalog in emulator/service/catalog/cache.ts). A kept file is found by a hash of
 * everything it was derived from, so an edited source misses; it is written whole (a temporary name,
 * then a rename: of two starts at once, the last rename wins); only the newest few of a kind stay.
 * Any failure to read or write one only means deriving it again.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

export const KEPT_ROOT = join(__dirname, '..', '..', 'node_modules', '.cache', 'scan-service');

/** The path of the file kept in `dir` for these sources (each hashed with its length, so no two lists collide). */
export function keptPath(dir: string, prefix: string, ext: string, sources: Array<Buffer | string>): string {
  const hash = createHash('sha256');
  for (const s of sources) hash.update(`${Buffer.byteLength(s)}\n`).update(s);
  return join(dir, `${prefix}-${hash.digest('hex')}${ext}`);
}

/** The kept file's bytes (and it counts as just used), or undefined when there is none. */
export function readKept(path: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // another start removed it meanwhile: this one has read it already
  }
  return bytes;
}

/**
 * Writes a kept file from its parts, then keeps the `keep` most recently used files of its
 * extension in its folder and removes temporary files a killed start left behind.
 */
export function writeKept(path: string, parts: Array<Buffer | string>, keep: number): void {
  const dir = join(path, '..');
  const tmp = `${path}.${process.pid}-${threadId}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))));
    renameSync(tmp, path);
    const ext = path.slice(path.lastIndexOf('.'));
    const kept: { file: string; used: number }[] = [];
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      const used = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
      if (used === undefined) continue;
      if (name.endsWith(ext)) kept.push({ file, used });
      else if (name.endsWith('.tmp') && Date.now() - used > 10 * 60_000) rmSync(file, { force: true });
    }
    kept.sort((a, b) => b.used - a.used);
    for (const { file } of kept.slice(keep)) rmSync(file, { force: true });
  } catch {
    rmSync(tmp, { force: true });
  }
}
