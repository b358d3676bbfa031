/**
 * Bearer keys (document section 5): every /api/ request carries `Authorization: Bearer <key>`;
 * each configured key is its own account. A key entry `KEY:US:CA` limits the account to those
 * marketplaces (others answer 403), so "no access to that marketplace" can be tried locally.
 */
import type Database from 'better-sqlite3';
import type { FastifyRequest } from 'fastify';
import type { Account } from '../context';
import { ApiError } from './errors';
import { findMarketplace, MARKETPLACES, type Marketplace } from '../../../contract/marketplaces';

/** Parses the key entries and makes sure each has an account row (stable id across restarts). */
export function registerAccounts(db: Database.Database, entries: string[], now: Date): Map<string, Account> {
  const accounts = new Map<string, Account>();
  const insert = db.prepare('INSERT OR IGNORE INTO accounts (api_key, created_at) VALUES (?, ?)');
  const select = db.prepare<[string], { id: number }>('SELECT id FROM accounts WHERE api_key = ?');
  db.transaction(() => {
    for (const entry of entries) {
      const [key, ...codes] = entry.split(':').map((s) => s.trim());
      if (!key) throw new Error(`API key entry "${entry}" has no key`);
      let marketplaceIds: number[] | null = null;
      if (codes.length) {
        marketplaceIds = codes.map((code) => {
          const m = MARKETPLACES.find((x) => x.code === code.toUpperCase());
          if (!m) throw new Error(`API key entry "${entry}": unknown marketplace "${code}"`);
          return m.id;
        });
      }
      insert.run(key, now.toISOString());
      const id = select.get(key)!.id;
      // One user per account locally; the document's user_id is that user.
      accounts.set(key, { id, userId: id, apiKey: key, marketplaceIds });
    }
  })();
  return accounts;
}

/** The account of a request's bearer key; throws 401 with a message saying what is wrong. */
export function authenticate(accounts: Map<string, Account>, header: string | undefined): Account {
  const challenge = { 'WWW-Authenticate': 'Bearer' };
  if (!header) throw new ApiError(401, 'Missing API key: send the header "Authorization: Bearer <API_KEY>".', {}, challenge);
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw new ApiError(401, 'Malformed Authorization header: expected "Bearer <API_KEY>".', {}, challenge);
  const account = accounts.get(m[1]);
  if (!account) throw new ApiError(401, 'Invalid API key.', {}, challenge);
  return account;
}

const KNOWN = MARKETPLACES.map((m) => m.code).join(', ');

/**
 * The marketplace a request names, checked against the account's access.
 * `codeOnly`: the document uses a code there (tags, notes, scans, conversion); otherwise a code
 * or a numeric id is accepted (the four bulk areas). Unknown -> 422, no access -> 403.
 */
export function requestMarketplace(account: Account, value: unknown, field = 'marketplace_id', codeOnly = false): Marketplace {
  let m: Marketplace | undefined;
  if (typeof value === 'string' && /^[A-Z]{2}$/.test(value)) m = MARKETPLACES.find((x) => x.code === value);
  else if (!codeOnly && typeof value === 'number' && Number.isInteger(value)) m = findMarketplace(value);
  else if (!codeOnly && typeof value === 'string' && /^\d+$/.test(value)) m = findMarketplace(value);
  if (!m) {
    const shown = typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
    throw new ApiError(
      422,
      `Unknown marketplace ${shown} in ${field}: expected ${codeOnly ? 'a' : 'a numeric id or a'} marketplace code (${KNOWN}).`,
    );
  }
  assertMarketplaceAccess(account, m);
  return m;
}

/** 403 when the account's key is limited to other marketplaces. */
export function assertMarketplaceAccess(account: Account, m: Marketplace): void {
  if (account.marketplaceIds && !account.marketplaceIds.includes(m.id)) {
    throw new ApiError(403, `This API key has no access to marketplace ${m.code}.`);
  }
}

/** For handlers: the authenticated account (set by the app's bearer hook). */
export function accountOf(req: FastifyRequest): Account {
  return req.account;
}
