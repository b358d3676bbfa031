/**
 * Whose records are whose. A record other editors of a document also hold (the running scans, a
 * document property) carries a short tag of the user who made it. The tag comes from ONE random id
 * per user (Utilities.getUuid(), made once and kept in the user properties under USER_ID_KEY). User
 * properties are the effective user's, which in an installable trigger is the user who made it, so
 * the sidebar and that user's hourly trigger read the same id, whatever Google does with the
 * temporary key.
 *
 * The old ways: tags were 12 hex digits of SHA-256 of Session.getTemporaryActiveUserKey() (which
 * rotates every 30 days, and is not documented to be the same in a trigger as in the sidebar),
 * and before that of the email. `old` keeps the tags this user had those ways (added while each key
 * is current, newest last, at most OLD_TAGS_MAX), so records tagged so are still recognised as
 * theirs, and are rewritten with the id's tag. A blank key or email never gives an old tag: it was
 * the same for every user it was blank for.
 */
import { USER_ID_KEY } from './keys';
import { record } from './records';

type Properties = GoogleAppsScript.Properties.Properties;

export interface UserIdentity {
  /** The random id (Utilities.getUuid()). */
  id: string;
  /** Tags this user had the old ways. */
  old: string[];
}

/** Old tags kept: 8 temporary keys are 8 months of rotations, plus the email's. */
export const OLD_TAGS_MAX = 8;

/**
 * THE tag of a user's records: the first 12 hex digits of their random id (random, so naming
 * nothing about the person; 48 bits against the few editors of a document).
 */
export function recordTag(userId: string): string {
  return userId
    .replace(/[^0-9a-fA-F]/g, '')
    .toLowerCase()
    .slice(0, 12);
}

const IDENTITY = record<UserIdentity>(USER_ID_KEY, {
  decode: (raw) => {
    const v = raw as { id?: unknown; old?: unknown } | null;
    if (!v || typeof v.id !== 'string' || recordTag(v.id).length < 12) return null;
    return { id: v.id, old: Array.isArray(v.old) ? v.old.filter((t: unknown) => typeof t === 'string') : [] };
  },
});

export function readIdentity(user: Properties): UserIdentity | null {
  try {
    return IDENTITY.get(user);
  } catch (_e) {
    return null;
  }
}

export function writeIdentity(user: Properties, identity: UserIdentity): void {
  IDENTITY.put(user, { id: identity.id, old: identity.old.slice(-OLD_TAGS_MAX) });
}

/** The identity with `tags` (the old ways' tags now current) added, or null when it already has them. */
export function withOldTags(identity: UserIdentity, tags: readonly string[]): UserIdentity | null {
  const add = tags.filter((t, i) => t && tags.indexOf(t) === i && identity.old.indexOf(t) < 0);
  if (!add.length) return null;
  return { id: identity.id, old: identity.old.concat(add).slice(-OLD_TAGS_MAX) };
}

/** Whether a record's tag is this user's: their id's, or one they had the old ways. */
export function isOwnTag(identity: UserIdentity, tag: string): boolean {
  return tag === recordTag(identity.id) || identity.old.indexOf(tag) >= 0;
}
