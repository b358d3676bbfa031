/**
 * Tests and benchmarks reach the add-on through its entry points (GUIDE "Through the real path"):
 * no test or bench file spells a storage key the add-on owns. The keys and prefixes are read from
 * the literals of src/store (tools/listing/store-kinds.ts), never listed here, so a key added there
 * is checked at once. A file may spell one only through a fixture helper exported from src/store.
 */
import { filesUnder } from './files';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { literalsOf, STORAGE_NAME, storedKinds } from '../../tools/listing/store-kinds';

const ROOT = join(__dirname, '..', '..');

/**
 * Files not yet converted (issue 32), with the keys they spell. This list only shrinks: a file that
 * no longer spells a key fails the test below until it is taken off.
 */
const NOT_YET_CONVERTED = [
  // The build checks of the storage names themselves (layout, privacy policy) spell them to check them.
  'test/build/layout.test.ts',
  'test/build/listing.test.ts',
];

/** The add-on's storage keys and key prefixes (property keys, the cache namespace), from src/store. */
function storageKinds(): string[] {
  return storedKinds().filter(STORAGE_NAME);
}

/** The literals of `text` that spell one of `kinds`: the key itself, or a name under a key or prefix. */
export function handWrittenKeys(text: string, kinds: string[]): string[] {
  const spells = (l: string, k: string) => (/[._|]$/.test(k) ? l.startsWith(k) : l === k || l.startsWith(k + '.') || l.startsWith(k + '|'));
  return literalsOf(text).filter((l) => kinds.some((k) => spells(l, k)));
}

const offenders = (): Map<string, string[]> => {
  const kinds = storageKinds();
  const out = new Map<string, string[]>();
  for (const f of [...filesUnder('test'), ...filesUnder('bench')]) {
    const keys = handWrittenKeys(readFileSync(join(ROOT, f), 'utf8'), kinds);
    if (keys.length) out.set(f, [...new Set(keys)]);
  }
  return out;
};

test('the storage kinds come from src/store: its running-scans key and result-tab prefix among them', () => {
  const kinds = storageKinds();
  // Read from src/store's own exports, so this test names no key either.
  const { RUNNING_KEY } = require('../../src/store/keys') as { RUNNING_KEY: string };
  expect(kinds).toContain(RUNNING_KEY);
  expect(kinds.filter((k) => k.endsWith('.')).length).toBeGreaterThan(5);
});

test('the checker finds a key written by hand, a prefix built on, and skips comments and other text', () => {
  const kinds = storageKinds();
  const key = kinds.find((k) => !/[._|]$/.test(k) && k.includes('.'))!;
  const prefix = kinds.find((k) => k.endsWith('.'))!;
  const sample = [
    `// ${key} in a comment is not code`,
    `props.set(${JSON.stringify(key)}, '{}');`,
    `props.get(${JSON.stringify(prefix)} + 7);`,
    `const other = 'scanner.settings and ${key}';`,
  ].join('\n');
  expect(handWrittenKeys(sample, kinds)).toEqual([key, prefix]);
  expect(handWrittenKeys(`rt.scriptRun('listScans', [1]);`, kinds)).toEqual([]);
});

test('no test or bench file writes an add-on storage key by hand, except those not yet converted', () => {
  const found = offenders();
  const unexpected = [...found.keys()].filter((f) => !NOT_YET_CONVERTED.includes(f));
  expect(unexpected.map((f) => `${f}: ${found.get(f)!.join(', ')}`)).toEqual([]);
});

test('the list of files not yet converted only shrinks: each one listed still spells a key', () => {
  const found = offenders();
  expect(NOT_YET_CONVERTED.filter((f) => !found.has(f))).toEqual([]);
});
