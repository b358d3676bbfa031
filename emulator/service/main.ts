/**
 * `npm run service`: the local Scan Service on 127.0.0.1, settings from SCAN_SERVICE_* (README.md).
 * Prints `listening on http://127.0.0.1:<port>` once it accepts requests (spawn.ts waits for it).
 */
import { configFromEnv, DEMO_API_KEY } from './config';
import { startService } from './server';

async function main(): Promise<void> {
  const config = configFromEnv();
  const svc = await startService(config);
  const keys = config.apiKeys.map((k) => k.split(':')[0]);
  if (!process.env.SCAN_SERVICE_API_KEYS) console.log(`API key (demo account): ${DEMO_API_KEY}`);
  else console.log(`accounts: ${keys.length}`);
  console.log(`catalog: ${svc.ctx.catalog.size()} products; database: ${config.dbPath}`);
  console.log(`API reference: ${svc.url}/docs`);
  console.log(`listening on ${svc.url}`);
  const stop = async () => {
    await svc.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  console.error(`scan service: could not start: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
});
