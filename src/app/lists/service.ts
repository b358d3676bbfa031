/**
 * The service side of each list: read every entry of the list's marketplaces as (key, value), and
 * apply a plan's sends with the fewest requests the API allows (bulk areas: 10,000 rows a request,
 * per marketplace; tags: one upsert and one delete per marketplace; notes: one request per note,
 * in parallel batches).
 */
import { listArea, writeArea, type PacedArea, type PacedContext, type PacedItem, type PacedPath, type PacedRow } from '../../api/bulk';
import { BRAND_BLOCKLIST } from '../../api/brand-blocklist';
import { ASIN_BLOCKLIST } from '../../api/asin-blocklist';
import { LISTING_MATCHES } from '../../api/listing-matches';
import { MULTIPACK_CORRECTIONS } from '../../api/multipack-corrections';
import { listTags, writeTags, type TagMap } from '../../api/tags';
import { applyNoteChanges, listNotes, type NoteChange } from '../../api/notes';
import { findMarketplace } from '../../../contract/marketplaces';
import { SEP, splitKey, tagNames, type ListId } from './kinds';
import type { Entry } from './plan';

function code(id: unknown): string {
  const m = findMarketplace(id as string | number);
  return m ? m.code : String(id);
}

/**
 * A list kept in a paced area: how a listed item becomes an entry, and an entry a row to write.
 * `parts`: the entry's key split (marketplace code first).
 */
interface PacedList<P extends PacedPath> {
  area: PacedArea<P>;
  /** The entry's key after the marketplace code, and its value. */
  entry(item: PacedItem<P>): [string, string];
  post(parts: string[], value: string): PacedRow<P, 'post'>;
  delete(parts: string[]): PacedRow<P, 'delete'>;
}

const brands: PacedList<typeof BRAND_BLOCKLIST.path> = {
  area: BRAND_BLOCKLIST,
  entry: (r) => [r.name, ''],
  post: (p) => p[1],
  delete: (p) => p[1],
};
const asins: PacedList<typeof ASIN_BLOCKLIST.path> = {
  area: ASIN_BLOCKLIST,
  entry: (r) => [r.asin, ''],
  post: (p) => p[1],
  delete: (p) => p[1],
};
const matches: PacedList<typeof LISTING_MATCHES.path> = {
  area: LISTING_MATCHES,
  entry: (r) => [r.identifier + SEP + r.asin, r.is_match ? 'TRUE' : 'FALSE'],
  post: (p, v) => ({ identifier: p[1], asin: p[2], is_match: v === 'TRUE' }),
  delete: (p) => ({ identifier: p[1], asin: p[2] }),
};
const multipack: PacedList<typeof MULTIPACK_CORRECTIONS.path> = {
  area: MULTIPACK_CORRECTIONS,
  entry: (r) => [r.asin, String(r.quantity)],
  post: (p, v) => ({ asin: p[1], quantity: Number(v) }),
  delete: (p) => p[1],
};
function byMarketplace(entries: readonly Entry[]): Map<string, Entry[]> {
  const out = new Map<string, Entry[]>();
  for (const e of entries) {
    const mp = splitKey(e.key)[0];
    const l = out.get(mp);
    if (l) l.push(e);
    else out.set(mp, [e]);
  }
  return out;
}

export interface SendResult {
  /** Notes: sheet key ("new:<row>" or a replaced "id:<n>") -> the key of the note now on the service. */
  renamed: Map<string, string>;
  requests: number;
}

/** The service side of one list kind: read every entry, and apply a plan's sends. */
interface ServiceList {
  /** `only`: the one marketplace the table covers, null = all (tags, listed per marketplace, then read `tagMarketplaces`). */
  read(ctx: PacedContext, only: string | null, tagMarketplaces: string[]): Map<string, string>;
  /** Sends a plan's upserts and deletes; `service`: the service's values (tags diff against them). */
  apply(
    ctx: PacedContext,
    upserts: readonly Entry[],
    deletes: readonly Entry[],
    service: ReadonlyMap<string, string>,
    result: SendResult,
  ): void;
}

/** A list kept in a paced area, with the bulk client's list and writes. */
function pacedList<P extends PacedPath>(paced: PacedList<P>): ServiceList {
  return {
    read(ctx, only) {
      const out = new Map<string, string>();
      for (const r of listArea(ctx, paced.area, only ?? undefined)) {
        const [rest, value] = paced.entry(r);
        out.set(code(r.marketplace_id) + SEP + rest, value);
      }
      return out;
    },
    apply(ctx, upserts, deletes) {
      byMarketplace(deletes).forEach((l, mp) =>
        writeArea(
          ctx,
          paced.area,
          'delete',
          mp,
          l.map((e) => paced.delete(splitKey(e.key))),
        ),
      );
      byMarketplace(upserts).forEach((l, mp) =>
        writeArea(
          ctx,
          paced.area,
          'post',
          mp,
          l.map((e) => paced.post(splitKey(e.key), e.value)),
        ),
      );
    },
  };
}

const tags: ServiceList = {
  read(ctx, only, tagMarketplaces) {
    const out = new Map<string, string>();
    for (const m of only ? [only] : tagMarketplaces) {
      const map = listTags(ctx, m);
      for (const asin of Object.keys(map)) {
        const names = tagNames(map[asin].join(','));
        if (names.length) out.set(m + SEP + asin, names.join(', '));
      }
    }
    return out;
  },
  apply(ctx, upserts, deletes, service) {
    const ups = byMarketplace(upserts);
    const dels = byMarketplace(deletes);
    const part = (e: Entry) => splitKey(e.key)[1];
    // Per marketplace: the assignments to add and to remove, each in one request.
    const mps = new Set<string>([...Array.from(ups.keys()), ...Array.from(dels.keys())]);
    mps.forEach((mp) => {
      const add: TagMap = {};
      const remove: TagMap = {};
      for (const e of ups.get(mp) ?? []) {
        const want = tagNames(e.value);
        const have = tagNames(service.get(e.key) ?? '');
        const a = want.filter((n) => have.indexOf(n) < 0);
        const r = have.filter((n) => want.indexOf(n) < 0);
        if (a.length) add[part(e)] = a;
        if (r.length) remove[part(e)] = r;
      }
      for (const e of dels.get(mp) ?? []) remove[part(e)] = tagNames(e.value);
      writeTags(ctx, 'delete', mp, remove);
      writeTags(ctx, 'put', mp, add);
    });
  },
};

const notes: ServiceList = {
  read(ctx, only) {
    const out = new Map<string, string>();
    for (const n of listNotes(ctx, only ?? undefined)) out.set('id:' + n.id, code(n.marketplace_id) + SEP + n.asin + SEP + n.note);
    return out;
  },
  apply(ctx, upserts, deletes, service, result) {
    const changes: NoteChange[] = [];
    const forKey: string[] = [];
    for (const e of deletes) {
      changes.push({ op: 'delete', id: Number(e.key.slice(3)) });
      forKey.push(e.key);
    }
    for (const e of upserts) {
      const [mp, asin] = splitKey(e.value);
      const note = e.value.slice(mp.length + asin.length + 2);
      const before = service.get(e.key);
      if (e.key.indexOf('id:') === 0 && before !== undefined) {
        const [bmp, basin] = splitKey(before);
        if (bmp === mp && basin === asin) {
          changes.push({ op: 'update', id: Number(e.key.slice(3)), note });
          forKey.push(e.key);
          continue;
        }
        // Only the text of a note can change: another ASIN or marketplace is a new note.
        changes.push({ op: 'delete', id: Number(e.key.slice(3)) });
        forKey.push('');
      }
      changes.push({ op: 'create', asin, marketplace: mp, note });
      forKey.push(e.key);
    }
    applyNoteChanges(ctx, changes, (i, note) => {
      if (changes[i].op === 'create' && note) result.renamed.set(forKey[i], 'id:' + note.id);
    });
  },
};

/** Every list kind's service side: a kind without one is a type error, never read as another kind. */
const SERVICE_LISTS: { [id in ListId]: ServiceList } = {
  tags,
  notes,
  brands: pacedList(brands),
  asins: pacedList(asins),
  matches: pacedList(matches),
  multipack: pacedList(multipack),
};

function serviceList(list: ListId): ServiceList {
  // A kind that reached here without its service side (a name from outside the type checker) is an error, not another kind.
  const s = Object.prototype.hasOwnProperty.call(SERVICE_LISTS, list) ? SERVICE_LISTS[list] : undefined;
  if (!s) throw new Error(`Unknown list "${String(list)}".`);
  return s;
}

/**
 * Every entry on the service. `only`: the one marketplace the table covers; null = all (the table
 * has a Marketplace column; tags, which are listed per marketplace, then use `tagMarketplaces`).
 */
export function readServiceEntries(ctx: PacedContext, list: ListId, only: string | null, tagMarketplaces: string[]): Map<string, string> {
  return serviceList(list).read(ctx, only, tagMarketplaces);
}

/** Sends a plan's upserts and deletes. `service`: the service's values (tags diff against them). */
export function applySends(
  ctx: PacedContext,
  list: ListId,
  upserts: readonly Entry[],
  deletes: readonly Entry[],
  service: ReadonlyMap<string, string>,
): SendResult {
  const result: SendResult = { renamed: new Map(), requests: 0 };
  serviceList(list).apply(ctx, upserts, deletes, service, result);
  return result;
}
