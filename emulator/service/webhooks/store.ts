/** The webhooks' rows, read by the routes and by deliveries (notify.ts). */
import type Database from 'better-sqlite3';

export interface WebhookRow {
  id: number;
  account_id: number;
  user_id: number;
  name: string;
  url: string;
  secret: string;
  events: string;
  is_active: number;
  created_at: string;
  updated_at: string;
}

/** The account's webhook, or undefined (also for another account's id). */
export function webhookOf(db: Database.Database, id: number, accountId: number): WebhookRow | undefined {
  return db.prepare('SELECT * FROM webhooks WHERE id = ? AND account_id = ?').get(id, accountId) as WebhookRow | undefined;
}

/** The account's active webhooks subscribed to `event`, oldest first. */
export function subscribedWebhooks(db: Database.Database, accountId: number, event: string): WebhookRow[] {
  const rows = db.prepare('SELECT * FROM webhooks WHERE account_id = ? AND is_active = 1 ORDER BY id').all(accountId) as WebhookRow[];
  return rows.filter((h) => (JSON.parse(h.events) as string[]).includes(event));
}
