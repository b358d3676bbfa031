/**
 * Tags on ASINs (document 2.5, 4.4): identified by name per account and marketplace, created when
 * first assigned, deleted when their last assignment goes. Names are trimmed and case-sensitive.
 */
import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { ServiceContext } from '../context';
import { ApiError } from '../shared/errors';
import { requestMarketplace } from '../shared/auth';
import { sqlTime } from '../shared/time';
import { checkAsin } from '../notes/routes';

export const TAG_NAME_MAX = 100;

/** Colour of a new tag: picked from a fixed palette by the name, so it is stable. */
const PALETTE = [
  '#e53935',
  '#d81b60',
  '#8e24aa',
  '#5e35b1',
  '#3949ab',
  '#1e88e5',
  '#00897b',
  '#43a047',
  '#7cb342',
  '#fdd835',
  '#fb8c00',
  '#6d4c41',
];
export function tagColor(name: string): string {
  return PALETTE[createHash('sha256').update(name).digest()[0] % PALETTE.length];
}

type TagMap = Record<string, string[]>;

/** Checked, trimmed `{asin: [names]}`; one 422 naming every problem. */
function checkTags(tags: TagMap): Array<[string, string[]]> {
  const problems: string[] = [];
  const out: Array<[string, string[]]> = [];
  for (const [rawAsin, names] of Object.entries(tags)) {
    let asin: string;
    try {
      asin = checkAsin(rawAsin, `tags key "${rawAsin}"`);
    } catch (e) {
      problems.push((e as Error).message.replace(/\.$/, ''));
      continue;
    }
    const clean: string[] = [];
    names.forEach((n, i) => {
      const t = n.trim();
      if (!t) problems.push(`tags.${rawAsin}[${i}] must not be empty`);
      else if (t.length > TAG_NAME_MAX) problems.push(`tags.${rawAsin}[${i}] must be at most ${TAG_NAME_MAX} characters long`);
      else if (!clean.includes(t)) clean.push(t);
    });
    out.push([asin, clean]);
  }
  if (problems.length) throw new ApiError(422, `Invalid request: ${problems.join('; ')}. Nothing was written.`);
  return out;
}

export function tagHandlers(ctx: ServiceContext) {
  const { db } = ctx;
  const findTag = db.prepare<[number, number, string], { id: number }>(
    'SELECT id FROM tags WHERE account_id = ? AND marketplace_id = ? AND name = ?',
  );
  const insertTag = db.prepare('INSERT INTO tags (account_id, marketplace_id, name, color, created_at) VALUES (?, ?, ?, ?, ?)');
  const assign = db.prepare('INSERT OR IGNORE INTO tag_assignments (tag_id, asin) VALUES (?, ?)');
  const unassign = db.prepare('DELETE FROM tag_assignments WHERE tag_id = ? AND asin = ?');
  const deleteIfUnused = db.prepare('DELETE FROM tags WHERE id = ? AND NOT EXISTS (SELECT 1 FROM tag_assignments WHERE tag_id = ?)');

  const upsert = db.transaction((accountId: number, marketplaceId: number, entries: Array<[string, string[]]>, now: string) => {
    const created: Array<{ id: number; name: string; color: string }> = [];
    let added = 0;
    for (const [asin, names] of entries) {
      for (const name of names) {
        let id = findTag.get(accountId, marketplaceId, name)?.id;
        if (id === undefined) {
          const color = tagColor(name);
          id = insertTag.run(accountId, marketplaceId, name, color, now).lastInsertRowid as number;
          created.push({ id, name, color });
        }
        added += assign.run(id, asin).changes;
      }
    }
    return { tags_created: created, assignments_added: added };
  });
  const remove = db.transaction((accountId: number, marketplaceId: number, entries: Array<[string, string[]]>) => {
    let removed = 0;
    const touched = new Set<number>();
    for (const [asin, names] of entries) {
      for (const name of names) {
        const id = findTag.get(accountId, marketplaceId, name)?.id;
        if (id === undefined) continue;
        removed += unassign.run(id, asin).changes;
        touched.add(id);
      }
    }
    let deleted = 0;
    for (const id of touched) deleted += deleteIfUnused.run(id, id).changes;
    return { assignments_removed: removed, tags_deleted: deleted };
  });

  return {
    listTags: async (req: FastifyRequest) => {
      const m = requestMarketplace(req.account, (req.query as { marketplace_id: string }).marketplace_id, 'marketplace_id', true);
      const rows = db
        .prepare(
          `SELECT a.asin, t.name FROM tag_assignments a JOIN tags t ON t.id = a.tag_id
           WHERE t.account_id = ? AND t.marketplace_id = ? ORDER BY a.asin, t.name`,
        )
        .all(req.account.id, m.id) as Array<{ asin: string; name: string }>;
      const out: TagMap = {};
      for (const r of rows) (out[r.asin] ??= []).push(r.name);
      return out;
    },
    upsertTags: async (req: FastifyRequest) => {
      const b = req.body as { marketplace_id: string; tags: TagMap };
      const m = requestMarketplace(req.account, b.marketplace_id, 'marketplace_id', true);
      return upsert(req.account.id, m.id, checkTags(b.tags), sqlTime(ctx.now()));
    },
    deleteTags: async (req: FastifyRequest) => {
      const b = req.body as { marketplace_id: string; tags: TagMap };
      const m = requestMarketplace(req.account, b.marketplace_id, 'marketplace_id', true);
      return remove(req.account.id, m.id, checkTags(b.tags));
    },
  };
}
