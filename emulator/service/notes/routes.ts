/** Notes on ASINs (document 2.6, 4.5): per account and marketplace; another account's note is a 404. */
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { ApiError, notFound } from '../shared/errors';
import { assertMarketplaceAccess, requestMarketplace } from '../shared/auth';
import { findMarketplace } from '../../../contract/marketplaces';
import { sqlTime } from '../shared/time';
import { ASIN_MAX, ASIN_MIN } from '../shared/bulk';

export const NOTE_MAX = 10_000;

interface NoteRow {
  id: number;
  account_id: number;
  marketplace_id: number;
  asin: string;
  note: string;
  created_at: string;
  updated_at: string;
}

const toJson = (r: NoteRow) => ({
  id: r.id,
  asin: r.asin,
  marketplace_id: r.marketplace_id,
  note: r.note,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** Trimmed ASIN, 10 to 25 characters (the rule of the bulk areas). */
export function checkAsin(raw: string, field = 'asin'): string {
  const a = raw.trim();
  if (a.length < ASIN_MIN || a.length > ASIN_MAX)
    throw new ApiError(422, `${field} must be ${ASIN_MIN} to ${ASIN_MAX} characters long (got ${a.length}).`);
  return a;
}

function checkNote(note: string): string {
  if (note.trim() === '') throw new ApiError(422, 'note must not be empty.');
  if (note.length > NOTE_MAX) throw new ApiError(422, `note must be at most ${NOTE_MAX} characters long (got ${note.length}).`);
  return note;
}

export function noteHandlers(ctx: ServiceContext) {
  const { db } = ctx;
  const byId = db.prepare<[number, number], NoteRow>('SELECT * FROM notes WHERE id = ? AND account_id = ?');
  const owned = (req: FastifyRequest): NoteRow => {
    const id = Number((req.params as { id: number }).id);
    const row = byId.get(id, req.account.id);
    if (!row) throw notFound('Note');
    // A key limited to other marketplaces may not change the note (permission checks, 2.6).
    const m = findMarketplace(row.marketplace_id);
    if (m) assertMarketplaceAccess(req.account, m);
    return row;
  };
  return {
    listNotes: async (req: FastifyRequest) => {
      const q = req.query as { marketplace_id?: string; asin?: string };
      const conds = ['account_id = ?'];
      const args: unknown[] = [req.account.id];
      if (q.marketplace_id !== undefined) {
        conds.push('marketplace_id = ?');
        args.push(requestMarketplace(req.account, q.marketplace_id, 'marketplace_id', true).id);
      } else if (req.account.marketplaceIds) {
        conds.push(`marketplace_id IN (${req.account.marketplaceIds.map(() => '?').join(', ')})`);
        args.push(...req.account.marketplaceIds);
      }
      if (q.asin !== undefined) {
        conds.push('asin = ?');
        args.push(q.asin.trim());
      }
      return (db.prepare(`SELECT * FROM notes WHERE ${conds.join(' AND ')} ORDER BY id DESC`).all(...args) as NoteRow[]).map(toJson);
    },
    createNote: async (req: FastifyRequest, reply: any) => {
      const b = req.body as { asin: string; marketplace_id: string; note: string };
      const m = requestMarketplace(req.account, b.marketplace_id, 'marketplace_id', true);
      const asin = checkAsin(b.asin);
      const note = checkNote(b.note);
      const now = sqlTime(ctx.now());
      const id = db
        .prepare('INSERT INTO notes (account_id, marketplace_id, asin, note, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(req.account.id, m.id, asin, note, now, now).lastInsertRowid as number;
      reply.code(201);
      return toJson(byId.get(id, req.account.id)!);
    },
    updateNote: async (req: FastifyRequest) => {
      const row = owned(req);
      const note = checkNote((req.body as { note: string }).note);
      db.prepare('UPDATE notes SET note = ?, updated_at = ? WHERE id = ?').run(note, sqlTime(ctx.now()), row.id);
      return toJson(byId.get(row.id, req.account.id)!);
    },
    deleteNote: async (req: FastifyRequest) => {
      const row = owned(req);
      db.prepare('DELETE FROM notes WHERE id = ?').run(row.id);
      return { deleted: true };
    },
  };
}
