/**
 * What every part of the local Scan Service is handed. Contract between the service's modules:
 * app wiring, auth, bulk areas, tags, notes and webhooks (server side) and scans/conversion.
 */
import type Database from 'better-sqlite3';
import 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Catalog } from './engine/types';

export interface ServiceConfig {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** SQLite file, or ':memory:'. */
  dbPath: string;
  /**
   * One account per entry. An entry is `KEY` (all marketplaces) or `KEY:US:CA` (only those
   * marketplaces; others answer 403), so "no access to a marketplace" can be tried locally.
   */
  apiKeys: string[];
  catalogPath: string;
  /** Lets webhook URLs point at loopback, http allowed there (local development only). */
  allowLoopbackWebhooks: boolean;
  /** Input lines processed per minute per scan (realistic by default; tests raise it). */
  scanSpeedPerMinute: number;
  /** Upload size limit in bytes. */
  maxUploadBytes: number;
  /** Time-out of one webhook delivery attempt, ms. */
  webhookTimeoutMs: number;
  /** Delays before retries of a webhook delivery, ms (document: 2 s, 4 s, 8 s). */
  webhookRetryDelaysMs: number[];
  /** Requests per minute per account on the four bulk areas (document: 30). */
  bulkRateLimitPerMinute: number;
  /**
   * Added by the scans owner: whether the spreadsheet-service integration counts as set up for every
   * account (POST /api/v3/scans/{id}/export); false answers 409. Default (absent) true.
   */
  exportIntegration?: boolean;
}

export interface Account {
  id: number;
  userId: number;
  apiKey: string;
  /** null: all marketplaces. */
  marketplaceIds: number[] | null;
}

/** A handler of one operation (by operationId), as the areas give them and app.ts wires them. */
export type Handler = (req: FastifyRequest, reply: FastifyReply) => unknown;

export interface ServiceContext {
  db: Database.Database;
  config: ServiceConfig;
  catalog: Catalog;
  /** Service time; tests may move it. */
  now(): Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bearer-key hook before any handler runs. */
    account: Account;
  }
}
