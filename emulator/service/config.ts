/**
 * Settings of the local Scan Service: defaults, and reading them from the environment
 * (every variable is documented in README.md).
 */
import { join } from 'node:path';
import type { ServiceConfig } from './context';
import { SAMPLE_CATALOG_PATH } from './catalog';

/** The key used when SCAN_SERVICE_API_KEYS is not set; printed at start. */
export const DEMO_API_KEY = 'demo-key-0000000000000000';

const ROOT = join(__dirname, '..', '..');

export function defaultConfig(): ServiceConfig {
  return {
    host: '127.0.0.1',
    port: 8787,
    dbPath: join(ROOT, '.data', 'scan-service.sqlite'),
    apiKeys: [DEMO_API_KEY],
    catalogPath: SAMPLE_CATALOG_PATH,
    allowLoopbackWebhooks: false,
    // A few hundred products a minute: slow enough that progress, polling and cancel can be seen.
    scanSpeedPerMinute: 600,
    maxUploadBytes: 32 * 1024 * 1024,
    webhookTimeoutMs: 10_000,
    webhookRetryDelaysMs: [2000, 4000, 8000],
    bulkRateLimitPerMinute: 30,
  };
}

function int(name: string, value: string, min: number): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < min) throw new Error(`${name} must be a whole number >= ${min}, got "${value}"`);
  return Number(value);
}

/** Config from SCAN_SERVICE_* variables; throws with a clear message on a bad value. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const c = defaultConfig();
  const v = (k: string) => (env[k] !== undefined && env[k] !== '' ? env[k] : undefined);
  if (v('SCAN_SERVICE_HOST')) c.host = v('SCAN_SERVICE_HOST')!;
  if (v('SCAN_SERVICE_PORT')) c.port = int('SCAN_SERVICE_PORT', v('SCAN_SERVICE_PORT')!, 0);
  if (v('SCAN_SERVICE_DB')) c.dbPath = v('SCAN_SERVICE_DB')!;
  if (v('SCAN_SERVICE_API_KEYS')) {
    c.apiKeys = v('SCAN_SERVICE_API_KEYS')!
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    if (c.apiKeys.length === 0) throw new Error('SCAN_SERVICE_API_KEYS lists no key');
  }
  if (v('SCAN_SERVICE_CATALOG')) c.catalogPath = v('SCAN_SERVICE_CATALOG')!;
  if (v('SCAN_SERVICE_ALLOW_LOOPBACK_WEBHOOKS')) c.allowLoopbackWebhooks = v('SCAN_SERVICE_ALLOW_LOOPBACK_WEBHOOKS') === '1';
  if (v('SCAN_SERVICE_SPEED')) c.scanSpeedPerMinute = int('SCAN_SERVICE_SPEED', v('SCAN_SERVICE_SPEED')!, 1);
  if (v('SCAN_SERVICE_MAX_UPLOAD_BYTES')) c.maxUploadBytes = int('SCAN_SERVICE_MAX_UPLOAD_BYTES', v('SCAN_SERVICE_MAX_UPLOAD_BYTES')!, 1);
  if (v('SCAN_SERVICE_WEBHOOK_TIMEOUT_MS'))
    c.webhookTimeoutMs = int('SCAN_SERVICE_WEBHOOK_TIMEOUT_MS', v('SCAN_SERVICE_WEBHOOK_TIMEOUT_MS')!, 1);
  if (v('SCAN_SERVICE_WEBHOOK_RETRY_DELAYS_MS')) {
    c.webhookRetryDelaysMs = v('SCAN_SERVICE_WEBHOOK_RETRY_DELAYS_MS')!
      .split(',')
      .map((d) => int('SCAN_SERVICE_WEBHOOK_RETRY_DELAYS_MS', d, 0));
  }
  if (v('SCAN_SERVICE_EXPORT_INTEGRATION')) c.exportIntegration = v('SCAN_SERVICE_EXPORT_INTEGRATION') !== '0';
  if (v('SCAN_SERVICE_BULK_RATE_LIMIT'))
    c.bulkRateLimitPerMinute = int('SCAN_SERVICE_BULK_RATE_LIMIT', v('SCAN_SERVICE_BULK_RATE_LIMIT')!, 1);
  return c;
}
