/**
 * The service side of each list: read every entry of the list's marketplaces as (key, value), and
 * apply a plan's sends with the fewest requests the API allows (bulk areas: 10,000 rows a request,
 * per marketplace; tags: one upsert and one delete per marketplace; notes: one request per note,
 * in parallel batches).
 */
import type { PacedContext } from '../../api/bulk';
import { addBrands, deleteBrands, listBrands } from '../../api/brand-blocklist';
import { addBlockedAsins, deleteBlockedAsins, listBlockedAsins } from '../../api/asin-blocklist';
import { deleteListingMatches, listListingMatches, upsertListingMatches } from '../../api/listing-matches';
import { deleteCorrections, listCorrections, upsertCorrections } from '../../api/multipack-corrections';
import { deleteTags, listTags, upsertTags, type TagMap } from '../../api/tags';
import { applyNoteChanges, listNotes, type NoteChange } from '../../api/notes';
import { findMarketplace } from '../../../contract/marketplaces';
import { SEP, splitKey, tagNames, type ListId } from './kinds';
import type { Entry } from './plan';

function code(id: unknown): string {
  const m = findMarketplace(id as string | number);
  return m ? m.code : String(id);
}

/**
 * Every entry on the service. `marketplaces`: the codes the table covers; null = all (the table
 * has a Marketplace column; tags, which are listed per marketplace, then use `tagMarketplaces`).
 */
export function readServiceEntries(ctx: PacedContext, list: ListId, only: string | null, tagMarketplaces: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const mp = only ?? undefined;
  switch (list) {
    case 'brands':
      for (const r of listBrands(ctx, mp)) out.set(code(r.marketplace_id) + SEP + r.name, '');
      break;
    case 'asins':
      for (const r of listBlockedAsins(ctx, mp)) out.set(code(r.marketplace_id) + SEP + r.asin, '');
      break;
    case 'matches':
      for (const r of listListingMatches(ctx, mp))
        out.set(code(r.marketplace_id) + SEP + r.identifier + SEP + r.asin, r.is_match ? 'TRUE' : 'FALSE');
      break;
    case 'multipack':
      for (const r of listCorrections(ctx, mp)) out.set(code(r.marketplace_id) + SEP + r.asin, String(r.quantity));
      break;
    case 'tags':
      for (const m of only ? [only] : tagMarketplaces) {
        const map = listTags(ctx, m);
        for (const asin of Object.keys(map)) {
          const names = tagNames(map[asin].join(','));
          if (names.length) out.set(m + SEP + asin, names.join(', '));
        }
      }
      break;
    case 'notes':
      for (const n of listNotes(ctx, mp)) out.set('id:' + n.id, code(n.marketplace_id) + SEP + n.asin + SEP + n.note);
      break;
  }
  return out;
}

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

/** Sends a plan's upserts and deletes. `service`: the service's values (tags diff against them). */
export function applySends(
  ctx: PacedContext,
  list: ListId,
  upserts: readonly Entry[],
  deletes: readonly Entry[],
  service: ReadonlyMap<string, string>,
): SendResult {
  const result: SendResult = { renamed: new Map(), requests: 0 };
  const ups = byMarketplace(upserts);
  const dels = byMarketplace(deletes);
  const part = (e: Entry, i: number) => splitKey(e.key)[i];
  switch (list) {
    case 'brands':
      dels.forEach((l, mp) =>
        deleteBrands(
          ctx,
          mp,
          l.map((e) => part(e, 1)),
        ),
      );
      ups.forEach((l, mp) =>
        addBrands(
          ctx,
          mp,
          l.map((e) => part(e, 1)),
        ),
      );
      break;
    case 'asins':
      dels.forEach((l, mp) =>
        deleteBlockedAsins(
          ctx,
          mp,
          l.map((e) => part(e, 1)),
        ),
      );
      ups.forEach((l, mp) =>
        addBlockedAsins(
          ctx,
          mp,
          l.map((e) => part(e, 1)),
        ),
      );
      break;
    case 'matches':
      dels.forEach((l, mp) =>
        deleteListingMatches(
          ctx,
          mp,
          l.map((e) => ({ identifier: part(e, 1), asin: part(e, 2) })),
        ),
      );
      ups.forEach((l, mp) =>
        upsertListingMatches(
          ctx,
          mp,
          l.map((e) => ({ identifier: part(e, 1), asin: part(e, 2), is_match: e.value === 'TRUE' })),
        ),
      );
      break;
    case 'multipack':
      dels.forEach((l, mp) =>
        deleteCorrections(
          ctx,
          mp,
          l.map((e) => part(e, 1)),
        ),
      );
      ups.forEach((l, mp) =>
        upsertCorrections(
          ctx,
          mp,
          l.map((e) => ({ asin: part(e, 1), quantity: Number(e.value) })),
        ),
      );
      break;
    case 'tags': {
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
          if (a.length) add[part(e, 1)] = a;
          if (r.length) remove[part(e, 1)] = r;
        }
        for (const e of dels.get(mp) ?? []) remove[part(e, 1)] = tagNames(e.value);
        deleteTags(ctx, mp, remove);
        upsertTags(ctx, mp, add);
      });
      break;
    }
    case 'notes': {
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
      break;
    }
  }
  return result;
}
