// `strongroom operator rewrap` and `rekey` on a storage that holds no encrypted data yet: refused with exit 1 and a
// message saying so, and they leave no root key file, no new key file and no database file behind. Also how the
// storage-side operator commands read their flags (Go's rules, as the client commands read theirs).
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EncryptedStorage } from '../../src/index.js';
import { SqliteStorage } from '../../src/sqlite.js';
import { builtCli, dataDir } from '../server/harness.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../support/postgres.js';
import { killLeftovers, runCli } from './operator-harness.js';

let cli: string;

beforeAll(async () => {
  cli = await builtCli();
}, 120_000);
let pg: PostgresServer | undefined;
afterAll(async () => {
  killLeftovers();
  await pg?.stop();
});

const KEY = randomBytes(32).toString('base64');

/** The database file a storage opened without encryption leaves in `dir`: its table, and nothing in it. */
async function emptyDatabase(dir: string): Promise<void> {
  const storage = new SqliteStorage({ path: join(dir, 'strongroom.db') });
  expect(await storage.list('')).toEqual([]);
  await storage.close();
}

describe('operator rewrap and rekey on a storage with no encrypted data', () => {
  it('refuses rewrap in an empty data directory, making no key file and no database', async () => {
    for (const rootKey of ['', KEY]) {
      const dir = dataDir();
      const run = await runCli(cli, ['operator', 'rewrap'], { STRONGROOM_DATA_DIR: dir, STRONGROOM_ROOT_KEY: rootKey });
      expect(run.stderr).toBe(
        `strongroom operator rewrap: nothing to rewrap: SQLite ${join(dir, 'strongroom.db')} holds no encrypted data yet\n`,
      );
      expect(run.code).toBe(1);
      expect(readdirSync(dir)).toEqual([]);
    }
  });

  it('refuses rekey in an empty data directory, making neither the new key file nor root.key', async () => {
    const dir = dataDir();
    const newFile = join(dir, 'root.key.new');
    const run = await runCli(cli, ['operator', 'rekey', '-new-key-file', newFile], {
      STRONGROOM_DATA_DIR: dir,
      STRONGROOM_ROOT_KEY: '',
      STRONGROOM_NEW_ROOT_KEY: '',
    });
    expect(run.stderr).toContain('nothing to rekey: SQLite');
    expect(run.stderr).toContain('holds no encrypted data yet');
    expect(run.code).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses both on a database that exists but holds no keyring, leaving it without one', async () => {
    const dir = dataDir();
    const env = { STRONGROOM_DATA_DIR: dir, STRONGROOM_ROOT_KEY: '', STRONGROOM_NEW_ROOT_KEY: KEY };
    await emptyDatabase(dir);
    for (const verb of ['rewrap', 'rekey']) {
      const run = await runCli(cli, ['operator', verb], env);
      expect(run.stderr).toContain(`nothing to ${verb}: SQLite ${join(dir, 'strongroom.db')} holds no encrypted data`);
      expect(run.code).toBe(1);
    }
    expect(existsSync(join(dir, 'root.key'))).toBe(false);
  });
});

describe('operator rewrap and rekey on a PostgreSQL database with no encrypted data', () => {
  it.skipIf(!postgresAvailable())('refuses both, making no key file and no keyring', async () => {
    pg = await startPostgres();
    const dir = dataDir();
    const env = { STRONGROOM_STORAGE_URL: pg.url, STRONGROOM_DATA_DIR: dir, STRONGROOM_ROOT_KEY: '' };
    const newFile = join(dir, 'root.key.new');
    for (const [verb, flags] of [
      ['rewrap', []],
      ['rekey', [`-new-key-file=${newFile}`]],
    ] as const) {
      const run = await runCli(cli, ['operator', verb, ...flags], env);
      expect(run.stderr).toContain(`nothing to ${verb}: PostgreSQL (`);
      expect(run.stderr).toContain('holds no encrypted data yet');
      expect(run.code).toBe(1);
    }
    expect(readdirSync(dir)).toEqual([]);
    // Neither run made a keyring: a third still finds nothing encrypted.
    const again = await runCli(cli, ['operator', 'rewrap'], env);
    expect(again.stderr).toContain('nothing to rewrap');
  });
});

describe('the storage-side operator commands read flags as the client commands do', () => {
  it('takes -batch-size=N and -batch-size N, refuses a bad one with the usage, and prints the usage on -h', async () => {
    const env = { STRONGROOM_DATA_DIR: dataDir(), STRONGROOM_ROOT_KEY: '' };
    // Parsed, the flag lets the command run as far as the storage, which has nothing to rewrap.
    for (const flags of [['-batch-size=5'], ['-batch-size', '5'], ['--batch-size=5']]) {
      const run = await runCli(cli, ['operator', 'rewrap', ...flags], env);
      expect(run.stderr).toContain('nothing to rewrap');
      expect(run.code).toBe(1);
    }
    const refusals: Array<[string[], string]> = [
      [['-batch-size=0'], '-batch-size needs a positive whole number'],
      [['-batch-size=ten'], 'invalid value "ten" for -batch-size: a whole number'],
      [['-batch-size'], 'flag needs an argument: -batch-size'],
      [['-bogus'], 'flag provided but not defined: -bogus'],
    ];
    for (const [flags, message] of refusals) {
      const run = await runCli(cli, ['operator', 'rewrap', ...flags], env);
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain('usage: strongroom operator rewrap');
      expect(run.code).toBe(1);
    }
    for (const name of ['rewrap', 'rekey', 'backup', 'restore']) {
      const help = await runCli(cli, ['operator', name, '-h'], env);
      expect(help.stdout).toContain(`usage: strongroom operator ${name}`);
      expect(help.code).toBe(0);
    }
  });

  it('ends the flags at the first argument, as Go does: a flag after FILE is an argument too many', async () => {
    const env = { STRONGROOM_DATA_DIR: dataDir() };
    await emptyDatabase(env.STRONGROOM_DATA_DIR);
    const file = join(dataDir(), 'backup.jsonl');
    const run = await runCli(cli, ['operator', 'backup', file, '-h'], env);
    expect(run.stderr).toContain('Too many arguments (expected 1, got 2)');
    expect(run.stderr).toContain('usage: strongroom operator backup FILE');
    expect(run.code).toBe(1);
    expect(existsSync(file)).toBe(false);
    // `--` ends the flags, so a file whose name starts with a dash can be named.
    const dashed = join(dataDir(), '-dashed.jsonl');
    expect((await runCli(cli, ['operator', 'backup', '--', dashed], env)).code).toBe(0);
    expect(existsSync(dashed)).toBe(true);
  });
});

describe('operator commands refuse what they cannot act on, with exit 1', () => {
  it('backup of a data directory that holds no database: nothing to back up, and no file made', async () => {
    const dir = dataDir();
    const target = join(dataDir(), 'backup.jsonl');
    const run = await runCli(cli, ['operator', 'backup', target], { STRONGROOM_DATA_DIR: dir });
    expect(run.stderr).toBe(
      `strongroom operator backup: nothing to back up: ${join(dir, 'strongroom.db')} does not exist\n`,
    );
    expect(run.code).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(target)).toBe(false);
  });

  it('rewrap with another root key than the data was encrypted with: names where the key came from', async () => {
    const dir = dataDir();
    const sealed = new EncryptedStorage({
      storage: new SqliteStorage({ path: join(dir, 'strongroom.db') }),
      key: Buffer.from(KEY, 'base64'),
    });
    await sealed.put('kv/some', new TextEncoder().encode('secret'));
    await sealed.close();
    const other = randomBytes(32).toString('base64');
    const run = await runCli(cli, ['operator', 'rewrap'], { STRONGROOM_DATA_DIR: dir, STRONGROOM_ROOT_KEY: other });
    expect(run.stderr).toContain('This key came from STRONGROOM_ROOT_KEY');
    expect(run.code).toBe(1);
  });
});
