/** contract/schema.ts is generated from the API description: this fails when it is stale. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

test('contract/schema.ts matches what the description generates (npm run gen:api)', () => {
  const root = join(__dirname, '..', '..');
  // A child process: openapi-typescript's dependencies are ES modules, which jest cannot load.
  let out = '';
  let status = 0;
  try {
    out = execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(root, 'tools', 'gen-api-types.ts'), '--check'],
      { cwd: root, encoding: 'utf8', stdio: 'pipe' },
    );
  } catch (e: any) {
    status = e.status;
    out = `${e.stdout}${e.stderr}`;
  }
  expect({ status, out: out.trim() }).toEqual({ status: 0, out: 'contract/schema.ts is up to date.' });
}, 60_000);
