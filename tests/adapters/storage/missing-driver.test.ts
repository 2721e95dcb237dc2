import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

// The entry is bundled into a directory with no node_modules above it, as in an app that did not install the driver.
const directory = mkdtempSync(join(tmpdir(), 'strongroom-no-driver-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function errorFromBundle(entry: string, format: 'esm' | 'cjs', script: string): Promise<string> {
  const extension = format === 'esm' ? 'mjs' : 'cjs';
  const outfile = join(directory, `${entry}.${extension}`);
  await build({
    entryPoints: [`src/${entry}.ts`],
    bundle: true,
    platform: 'node',
    format,
    outfile,
    external: ['libsql', 'postgres'],
    logLevel: 'silent',
  });
  const load =
    format === 'esm'
      ? `const m = await import(${JSON.stringify(outfile)});`
      : `const m = require(${JSON.stringify(outfile)});`;
  const program = `${format === 'esm' ? '' : '(async () => {'}${load} try { ${script} } catch (error) { console.log(error.message); }${format === 'esm' ? '' : '})()'}`;
  return execFileSync(
    process.execPath,
    [format === 'esm' ? '--input-type=module' : '--input-type=commonjs', '-e', program],
    { cwd: directory, encoding: 'utf8' },
  );
}

describe('an adapter whose driver package is not installed', () => {
  for (const format of ['esm', 'cjs'] as const) {
    it(`strongroom/sqlite (${format}) names the package to install on first use`, async () => {
      const message = await errorFromBundle('sqlite', format, `await new m.SqliteStorage({ path: 'x.db' }).get('k');`);
      expect(message.trim()).toBe(
        'strongroom/sqlite needs the libsql package, which is not installed: run `npm i libsql`',
      );
    });
    it(`strongroom/postgres (${format}) names the package to install on first use`, async () => {
      const message = await errorFromBundle(
        'postgres',
        format,
        `await new m.PostgresStorage({ connectionString: 'postgres://127.0.0.1:1/x' }).get('k');`,
      );
      expect(message.trim()).toBe(
        'strongroom/postgres needs the postgres package, which is not installed: run `npm i postgres`',
      );
    });
    it(`strongroom/postgres (${format}) still closes after an operation failed for want of the driver`, async () => {
      const script = `const storage = new m.PostgresStorage({ connectionString: 'postgres://127.0.0.1:1/x' }); await storage.get('k').catch(() => {}); await storage.close(); console.log('closed');`;
      expect((await errorFromBundle('postgres', format, script)).trim()).toBe('closed');
    });
  }
});
