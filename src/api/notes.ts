/**
 * Notes (document 2.6, 4.5): list (not paged), and per-note create / update (text only) / delete,
 * sent in parallel batches (fetchAll waves). Not a paced area.
 */
import type { components } from '../../contract/schema';
import { sendAll, type ApiCall, type ApiContext } from './client';
import { problemError, requestJson } from './exceptions';

export type Note = components['schemas']['Note'];
const PATH = '/api/v3/public/notes';

export function listNotes(ctx: ApiContext, marketplace?: string): Note[] {
  const body = requestJson(ctx, { method: 'get', path: PATH, query: { marketplace_id: marketplace } });
  return Array.isArray(body) ? (body as Note[]) : [];
}

export type NoteChange =
  | { op: 'create'; asin: string; marketplace: string; note: string }
  | { op: 'update'; id: number; note: string }
  | { op: 'delete'; id: number };

function callFor(c: NoteChange): ApiCall {
  if (c.op === 'create') return { method: 'post', path: PATH, body: { asin: c.asin, marketplace_id: c.marketplace, note: c.note } };
  if (c.op === 'update') return { method: 'patch', path: PATH + '/' + c.id, body: { note: c.note } };
  return { method: 'delete', path: PATH + '/' + c.id };
}

/**
 * Applies the changes in parallel batches; answers per change the note (create/update) or null
 * (delete; a note already gone counts as deleted). A failure of any change throws after the batch,
 * with what did go through in `done` so the caller can record it.
 */
export function applyNoteChanges(ctx: ApiContext, changes: readonly NoteChange[], onDone?: (i: number, note: Note | null) => void): void {
  const results = sendAll(ctx, changes.map(callFor));
  let failure: Error | undefined;
  results.forEach((r, i) => {
    if (r.ok) onDone?.(i, changes[i].op === 'delete' ? null : (r.body as Note));
    else if (changes[i].op === 'delete' && r.problem.kind === 'not-found') onDone?.(i, null);
    else if (!failure) failure = problemError(r.problem);
  });
  if (failure) throw failure;
}
