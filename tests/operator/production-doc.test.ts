// The shell blocks of docs/production.md's "Backups" and "Key rotation and rekey" sections, run as written by bash with
// `strongroom` on the PATH, against running servers: only the paths (/var/lib/strongroom, /backups) and the example
// database URL are pointed at this test's own.
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, dataDir, request } from '../server/harness.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../support/postgres.js';
import { sequenceBlocks } from '../support/sh-blocks.js';
import { killLeftovers, ROOT_TOKEN, runCli, startCliServer } from './operator-harness.js';

const EXAMPLE_URL = 'postgres://strongroom@db.internal/strongroom_restored';

const shellBlocks = (heading: string) => sequenceBlocks('docs/production.md', heading);

let cli: string;
let home: string;
let bin: string;
let pg: PostgresServer | undefined;
let restoredUrl = '';

/** Runs a block with bash, the test's paths in place of the doc's, and `env`; answers its output. */
function runBlock(block: string, env: Record<string, string>): string {
  const script = block
    .replaceAll('/var/lib/strongroom', join(home, 'var/lib/strongroom'))
    .replaceAll('/backups', join(home, 'backups'))
    .replaceAll(EXAMPLE_URL, restoredUrl);
  return execFileSync('bash', ['-euo', 'pipefail', '-c', script], {
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, ...env },
    encoding: 'utf8',
  });
}

const read = async (url: string, path: string) =>
  (await request(url, { path: `/v1/secret/data/${path}`, token: ROOT_TOKEN })).json?.data?.data?.value;
const write = (url: string, path: string, value: string) =>
  request(url, { method: 'POST', path: `/v1/secret/data/${path}`, token: ROOT_TOKEN, body: { data: { value } } });

beforeAll(async () => {
  cli = await builtCli();
  home = dataDir();
  bin = join(home, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'strongroom'), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`, { mode: 0o755 });
  mkdirSync(join(home, 'backups'));
  if (postgresAvailable()) {
    pg = await startPostgres();
    const admin = postgres(pg.url, { max: 1, onnotice: () => undefined });
    await admin.unsafe('CREATE DATABASE strongroom_restored');
    await admin.end();
    restoredUrl = pg.url.replace(/\/postgres$/, '/strongroom_restored');
  }
}, 120_000);
afterAll(async () => {
  killLeftovers();
  await pg?.stop();
});

describe('docs/production.md, run as written', () => {
  it('Backups, then Key rotation and rekey with the key in STRONGROOM_ROOT_KEY', async () => {
    const key = randomBytes(32).toString('base64');
    const env = { STRONGROOM_DATA_DIR: join(home, 'var/lib/strongroom'), STRONGROOM_ROOT_KEY: key };
    const server = await startCliServer(cli, env);
    expect((await write(server.url, 'app/db', 'before')).status).toBe(200);

    const [backup, restore, ...others] = shellBlocks('Backups');
    expect(others).toEqual([]);
    expect(runBlock(backup!, env)).toMatch(/^Wrote \d+ entries/);
    const [made] = readdirSync(join(home, 'backups'));
    copyFileSync(join(home, 'backups', made!), join(home, 'backups/strongroom-2030-01-01.jsonl'));
    // The PostgreSQL line needs a PostgreSQL; the SQLite line runs everywhere.
    const lines = restore!.split('\n').filter((line) => pg || !line.includes('STRONGROOM_STORAGE_URL'));
    expect(runBlock(lines.join('\n'), { STRONGROOM_ROOT_KEY: key })).toMatch(/^Restored \d+ entries/);
    const restoredDirs: Array<Record<string, string>> = [
      { STRONGROOM_DATA_DIR: join(home, 'var/lib/strongroom-restored') },
    ];
    if (pg) restoredDirs.push({ STRONGROOM_STORAGE_URL: restoredUrl, STRONGROOM_DATA_DIR: dataDir() });
    for (const where of restoredDirs) {
      const restored = await startCliServer(cli, { ...where, STRONGROOM_ROOT_KEY: key });
      expect(await read(restored.url, 'app/db')).toBe('before');
      await restored.stop();
    }

    const [rotate, rewrap, rekeyFromEnv, ...rest] = shellBlocks('Key rotation and rekey');
    expect(rest.length).toBe(1);
    const status = runBlock(rotate!, { VAULT_ADDR: server.url, VAULT_TOKEN: ROOT_TOKEN });
    expect(JSON.parse(status).data.term).toBe(2);
    expect(runBlock(rewrap!, env)).toContain('every value is under key term 2');
    expect(runBlock(rekeyFromEnv!, env)).toContain('the old root key no longer opens it');
    expect(await read(server.url, 'app/db')).toBe('before');
    expect((await write(server.url, 'app/db', 'after')).status).toBe(200);
    await server.stop();
    const refused = await runCli(cli, ['server'], { ...env, PORT: '0' });
    expect(refused.code).toBe(1);
  });

  it('Key rotation and rekey with the key file in the data directory', async () => {
    const dir = join(home, 'var/lib/strongroom');
    rmSync(dir, { recursive: true, force: true });
    const env = { STRONGROOM_DATA_DIR: dir, STRONGROOM_ROOT_KEY: '', STRONGROOM_NEW_ROOT_KEY: '' };
    const server = await startCliServer(cli, env);
    expect((await write(server.url, 'app/db', 'kept')).status).toBe(200);
    const oldKey = readFileSync(join(dir, 'root.key'));

    const rekeyToFile = shellBlocks('Key rotation and rekey')[3]!;
    runBlock(rekeyToFile, env);
    expect(readFileSync(join(dir, 'root.key'))).not.toEqual(oldKey);
    expect(await read(server.url, 'app/db')).toBe('kept');
    await server.stop();
    const restarted = await startCliServer(cli, env);
    expect(await read(restarted.url, 'app/db')).toBe('kept');
    await restarted.stop();
  });
});
