/**
 * The sidebar's contract for Settings > Webhooks (re-exported by ../protocol.ts, whose
 * ServerFunctions includes these). Plain data only; times as the service gives them.
 */

/** One webhook as the sidebar shows it (never with its secret). */
export interface WebhookView {
  id: number;
  name: string;
  url: string;
  events: string[];
  active: boolean;
  /** `YYYY-MM-DDTHH:MM:SS` as the service gives it ('' when it gave none). */
  createdAt: string;
  updatedAt: string;
}

export interface WebhookList {
  /** Oldest first, as the service lists them. */
  webhooks: WebhookView[];
  /** Most webhooks an account may have (10). */
  limit: number;
  /** The account has `limit` webhooks: the sidebar offers no "Add". */
  atLimit: boolean;
  /** What to say when the limit is reached, else null. */
  limitMessage: string | null;
  /** Events a webhook can subscribe to (only scan.complete). */
  events: string[];
  /** The page's explanations (help.ts): they come with the list so that they cost the page nothing. */
  help: WebhookHelp;
}

export interface WebhookHelp {
  /** One line on what webhooks are for. */
  about: string;
  /** "What can receive webhooks": paragraphs. */
  receiver: string[];
  /** The hint under the address field. */
  address: string;
  /** Why there is a sample instead of a test delivery, and how to use it: paragraphs. */
  test: string[];
  /** A scan.complete event as the service sends it (JSON, pretty-printed). */
  sample: string;
  /** Under a secret shown once. */
  secretOnce: string;
  /** When the browser refused to copy the secret. */
  copyByHand: string;
  /** After 'Make a new secret for "<name>' and after 'Delete the webhook "<name>': the rest of the question. */
  regenerate: string;
  delete: string;
}

export interface WebhookInput {
  name: string;
  /** HTTPS address on the public internet. */
  url: string;
  /** Default ['scan.complete']. */
  events?: string[];
}

/** What to change; absent members stay as they are. At least one member. */
export interface WebhookChange {
  name?: string;
  url?: string;
  events?: string[];
  active?: boolean;
}

/**
 * The answer of create and regenerate: the ONLY time the secret leaves the server function. The
 * add-on keeps no copy (no property, cache, log or cell); the sidebar shows it once.
 */
export interface WebhookSecret {
  webhook: WebhookView;
  secret: string;
}

export interface WebhookServerFunctions {
  /** Settings > Webhooks: the account's webhooks, never with their secrets; `atLimit` at 10. Its explanations come with it, so they cost the page nothing. */
  listWebhooks(): WebhookList;
  /**
   * Checks the name (1–100 characters), events (default scan.complete) and address before sending,
   * and refuses an 11th webhook itself. Sent once, never retried: a lost answer must not make a second
   * webhook. The secret is in this answer only; nothing keeps it.
   */
  createWebhook(input: WebhookInput): WebhookSecret;
  /** Rename, change the address (checked as on create), events, on/off: at least one change. */
  updateWebhook(id: number, change: WebhookChange): WebhookView;
  /** The sidebar confirms first; one the service no longer knows: `{deleted: false}`. */
  deleteWebhook(id: number): { deleted: boolean };
  /** Sent once; the sidebar confirms first, since the old secret stops working at once. The new secret is in this answer only. */
  regenerateWebhookSecret(id: number): WebhookSecret;
}
