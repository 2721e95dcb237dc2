// `strongroom operator backup` and `restore` as an operator runs them: a backup taken while writers write through a
// running server holds every write acknowledged before it began, stays encrypted and private (mode 0600); restored
// into an empty storage, a server started on it serves those writes. A non-empty storage, a cut-short, damaged or
// foreign file are refused, changing nothing. For SQLite and PostgreSQL.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, dataDir } from '../server/harness.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../support/postgres.js';
import { killLeftovers, missing, runCli, startCliServer, Writers } from './operator-harness.js';

const ROOT_KEY = randomBytes(32).toString('base64');
let cli: string;
let pg: PostgresServer | undefined;

beforeAll(async () => {
  cli = await builtCli();
}, 120_000);
afterAll(async () => {
  killLeftovers();
  await pg?.stop();
});

/** Backs up `source` while writers write, restores into `target`, and checks what a server on `target` serves. */
async function roundTrip(source: Record<string, string>, target: Record<string, string>): Promise<string> {
  const server = await startCliServer(cli, source);
  const writers = new Writers([server.url], 3);
  let file: string;
  try {
    await writers.more(30);
    const before = [...writers.acknowledged];
    file = join(dataDir(), 'backup.jsonl');
    const backup = await runCli(cli, ['operator', 'backup', file], source);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Wrote \d+ entries of .* to /);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await writers.more(30);
    await writers.stop();
    expect(writers.failures).toEqual([]);

    // Still encrypted: no stored value holds a plaintext the writers wrote.
    const values = readFileSync(file, 'utf8')
      .split('\n')
      .slice(1, -2)
      .map((line) => Buffer.from(JSON.parse(line).value, 'base64').toString('latin1'));
    expect(values.length).toBeGreaterThan(before.length);
    expect(values.filter((value) => value.includes('w0-0-'))).toEqual([]);

    const restore = await runCli(cli, ['operator', 'restore', file], target);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    const restored = await startCliServer(cli, target);
    try {
      expect(await missing(restored.url, before)).toEqual([]);
    } finally {
      await restored.stop();
    }

    const again = await runCli(cli, ['operator', 'restore', file], target);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is not empty');
    expect(again.stderr).toContain('restore loads only into an empty storage, so nothing was restored');
  } finally {
    await writers.stop();
    await server.stop();
  }
  return file;
}

describe('operator backup and restore', () => {
  it('SQLite: the round trip while writers run, then cut-short, damaged and foreign files are refused', async () => {
    const file = await roundTrip(
      { STRONGROOM_DATA_DIR: dataDir(), STRONGROOM_ROOT_KEY: ROOT_KEY },
      { STRONGROOM_DATA_DIR: dataDir(), STRONGROOM_ROOT_KEY: ROOT_KEY },
    );
    const content = readFileSync(file);
    const broken = join(dataDir(), 'broken.jsonl');
    const refusals: Array<[Buffer, string]> = [
      [content.subarray(0, Math.floor(content.length / 2)), 'is cut short: it ends before its closing line'],
      [content.subarray(0, content.lastIndexOf('\n', content.length - 2) + 1), 'is cut short'],
      [Buffer.from(content.toString().replace('"key":"', '"key":"x')), 'is damaged'],
      [Buffer.from('SQLite format 3\0not a backup\n'), 'is not a strongroom backup'],
      [Buffer.alloc(0), 'is not a strongroom backup'],
    ];
    const target = { STRONGROOM_DATA_DIR: dataDir(), STRONGROOM_ROOT_KEY: ROOT_KEY };
    for (const [bytes, message] of refusals) {
      writeFileSync(broken, bytes);
      const run = await runCli(cli, ['operator', 'restore', broken], target);
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain('nothing was restored');
      expect(run.code).toBe(1);
    }
    // Nothing was loaded: the storage is still empty, so a whole backup restores into it.
    expect((await runCli(cli, ['operator', 'restore', file], target)).code).toBe(0);

    const missingFile = await runCli(cli, ['operator', 'restore', join(dataDir(), 'none.jsonl')], target);
    expect(missingFile.code).toBe(1);
    expect(missingFile.stderr).toMatch(/cannot read .*none\.jsonl/);
    const exists = await runCli(cli, ['operator', 'backup', file], target);
    expect(exists.code).toBe(1);
    expect(exists.stderr).toContain('exists already');
    // A storage that cannot be reached is a server-side failure (exit 2), and leaves no file behind.
    const unreachableFile = join(dataDir(), 'unreachable.jsonl');
    const unreachable = await runCli(cli, ['operator', 'backup', unreachableFile], {
      STRONGROOM_STORAGE_URL: 'postgres://strongroom:hunter2@127.0.0.1:1/strongroom',
    });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/^strongroom operator backup: /);
    expect(unreachable.stderr).not.toContain('hunter2');
    expect(existsSync(unreachableFile)).toBe(false);
    const usage = await runCli(cli, ['operator', 'backup'], target);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('usage: strongroom operator backup FILE');
  });

  it.skipIf(!postgresAvailable())('PostgreSQL: the round trip while writers run, into a new database', async () => {
    pg = await startPostgres();
    const admin = postgres(pg.url, { max: 1, onnotice: () => undefined });
    await admin.unsafe('CREATE DATABASE restored');
    await admin.end();
    await roundTrip(
      { STRONGROOM_STORAGE_URL: pg.url, STRONGROOM_ROOT_KEY: ROOT_KEY, STRONGROOM_DATA_DIR: dataDir() },
      {
        STRONGROOM_STORAGE_URL: pg.url.replace(/\/postgres$/, '/restored'),
        STRONGROOM_ROOT_KEY: ROOT_KEY,
        STRONGROOM_DATA_DIR: dataDir(),
      },
    );
  });
});
