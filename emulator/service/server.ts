/**
 * Starts the local Scan Service in this process (the service's own tests, benchmarks, main.ts).
 * Add-on tests use spawn.ts instead: the local Apps Script runtime blocks its thread on UrlFetch.
 */
import type { Catalog, ScanEngine } from './engine/types';
import type { ServiceConfig, ServiceContext } from './context';
import { defaultConfig } from './config';
import { openDatabase } from './shared/db';
import { SERVICE_TABLES } from './areas';
import { registerAccounts } from './shared/auth';
import { buildApp, type AppOptions } from './app';
import { loadCatalog } from './catalog';
import { createEngine } from './engine';
import { startScanProcessor } from './scans';
import { resumeDeliveries, stopDeliveries } from './webhooks/notify';
import { ApiError } from './shared/errors';
import { type StandIn, stopOnce } from '../stand-in';

export interface RunningService extends StandIn {
  config: ServiceConfig;
  ctx: ServiceContext;
}

export interface StartOptions extends AppOptions {
  /** Service clock (tests move it); default real time. */
  now?: () => Date;
  /** A catalog already in memory (tests that need no products); default: load config.catalogPath. */
  catalog?: Catalog;
}

export async function startService(overrides: Partial<ServiceConfig> = {}, opts: StartOptions = {}): Promise<RunningService> {
  const config: ServiceConfig = { ...defaultConfig(), ...overrides };
  const catalog = opts.catalog ?? openCatalog(config.catalogPath);
  const db = openDatabase(config.dbPath, SERVICE_TABLES);
  const ctx: ServiceContext = { db, config, catalog, now: opts.now ?? (() => new Date()) };
  const engine = openEngine(catalog);
  const accounts = registerAccounts(db, config.apiKeys, ctx.now());
  const app = await buildApp(ctx, engine, accounts, opts);
  const stopScans = startScanProcessor(ctx, engine);
  resumeDeliveries(ctx);
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (e) {
    await stopScans();
    stopDeliveries(ctx);
    db.close();
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    url: `http://${config.host}:${port}`,
    config: { ...config, port },
    ctx,
    stop: stopOnce(async () => {
      await stopScans();
      stopDeliveries(ctx);
      await app.close();
      db.close();
    }),
  };
}

/** The catalog; while the catalog module is not there yet, an empty one (every lookup misses). */
function openCatalog(path: string): Catalog {
  try {
    return loadCatalog(path);
  } catch (e) {
    if (/not implemented/.test(String((e as Error).message))) return { byIdentifier: () => [], byAsin: () => undefined, size: () => 0 };
    throw e;
  }
}

/** The engine; while the engine module is not there yet, one whose every use answers 503. */
function openEngine(catalog: Catalog): ScanEngine {
  try {
    return createEngine(catalog);
  } catch (e) {
    if (!/not implemented/.test(String((e as Error).message))) throw e;
    const missing = () => {
      throw new ApiError(503, 'The scan engine is not available in this build of the local service.');
    };
    return {
      parseUpload: missing,
      readUpload: missing,
      processRow: missing,
      convert: missing,
      asinConvert: missing,
    } as unknown as ScanEngine;
  }
}
