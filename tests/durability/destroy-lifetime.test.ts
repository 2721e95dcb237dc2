// destroy_version_after across restarts and processes: a new engine over the same SQLite file sees the lifetime and
// what the sweep did; two engines over one real PostgreSQL sweep at once and destroy each version exactly once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { KvEngine } from '../../src/kv/index.js';
import { PostgresStorage } from '../../src/postgres.js';
import { SqliteStorage } from '../../src/sqlite.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../support/postgres.js';

const WRITTEN = '2026-03-01T12:00:00Z';
const LATER = '2026-03-01T14:00:00Z';

describe('destroy_version_after over a SQLite file, across restarts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strongroom-lifetime-'));
  const path = join(dir, 'kv.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** An engine over the file, as a process started anew would make it; closed after `use`. */
  async function withEngine<T>(at: string, use: (kv: KvEngine, storage: SqliteStorage) => Promise<T>): Promise<T> {
    const storage = new SqliteStorage({ path });
    try {
      return await use(new KvEngine({ storage, clock: new ManualClock(at) }), storage);
    } finally {
      await storage.close();
    }
  }

  it('a new engine sees the lifetime, answers the version destroyed, and then the sweep result', async () => {
    await withEngine(WRITTEN, async (kv) => {
      await kv.writeMetadata('app/db', { destroy_version_after: '1h' });
      await kv.write('app/db', { password: 'hunter2' });
      expect((await kv.read('app/db')).data).toEqual({ password: 'hunter2' });
    });
    await withEngine(LATER, async (kv, storage) => {
      expect((await kv.readMetadata('app/db')).destroy_version_after).toBe('1h0m0s');
      await expect(kv.read('app/db')).rejects.toThrow('is destroyed');
      expect((await storage.list('kv/versions/')).length).toBe(1);
      expect(await kv.sweepLifetimes()).toEqual({ destroyed: 1 });
    });
    await withEngine(LATER, async (kv, storage) => {
      expect(await storage.list('kv/versions/')).toEqual([]);
      expect((await kv.readMetadata('app/db')).versions['1']).toMatchObject({ destroyed: true });
      expect(await kv.sweepLifetimes()).toEqual({ destroyed: 0 });
    });
  });
});

describe.skipIf(!postgresAvailable())('destroy_version_after: two engines over one PostgreSQL', () => {
  let postgres: PostgresServer;
  const storages: PostgresStorage[] = [];
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(storages.map((storage) => storage.close()));
    await postgres?.stop();
  });

  const engineAt = (at: string) => {
    const storage = new PostgresStorage({ connectionString: postgres.url });
    storages.push(storage);
    return { kv: new KvEngine({ storage, clock: new ManualClock(at) }), storage };
  };

  it('sweeping at once, they destroy every expired version exactly once and leave no data behind', async () => {
    const writer = engineAt(WRITTEN).kv;
    await writer.writeConfig({ destroy_version_after: '1h' });
    const KEYS = 30;
    for (let n = 0; n < KEYS; n++) {
      await writer.write(`k/${n}`, { n });
      await writer.write(`k/${n}`, { n, again: true });
    }
    const [one, two] = [engineAt(LATER), engineAt(LATER)];
    const [first, second] = await Promise.all([one.kv.sweepLifetimes(), two.kv.sweepLifetimes()]);
    expect(first.destroyed + second.destroyed).toBe(2 * KEYS);
    expect(await one.storage.list('kv/versions/')).toEqual([]);
    for (let n = 0; n < KEYS; n++) {
      const versions = (await two.kv.readMetadata(`k/${n}`)).versions;
      expect([versions['1']!.destroyed, versions['2']!.destroyed]).toEqual([true, true]);
    }
    expect(await two.kv.sweepLifetimes()).toEqual({ destroyed: 0 });
  });
});
