// The mount table over one storage shared by two tables (two processes' worth): read through on each call, every change
// committed against the version it read, so that concurrent changes are all applied or refused, never lost.
import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { type KvEngine } from '../../../src/kv/index.js';
import { systemClock } from '../../../src/lib/clocks.js';
import type { Storage } from '../../../src/ports/storage.js';
import { EngineFactory } from '../../../src/server/mounts/engine-factory.js';
import { MountTable, type NewMount } from '../../../src/server/mounts/mount-table.js';
import { MountTableStore } from '../../../src/server/mounts/mount-table-store.js';

async function tableOver(storage: Storage): Promise<MountTable> {
  const engines = new EngineFactory({
    storage,
    clock: systemClock,
    onInternalError: () => undefined,
    maxValueBytes: 1 << 20,
    authOptions: { env: {} },
    system: { defaultLeaseTtl: 3600, maxLeaseTtl: 7200 },
  });
  const table = new MountTable(new MountTableStore(storage), engines, storage);
  await table.initialise();
  return table;
}
const kv = (path: string): NewMount => ({
  path,
  type: 'kv',
  description: '',
  options: { version: '2' },
  defaultLeaseTtl: 0,
  maxLeaseTtl: 0,
});
const paths = async (table: MountTable) => (await table.current()).map((mount) => mount.prefix).sort();

/** The storage's four required members only: what a storage without commit offers. */
const plain = (storage: Storage): Storage => ({
  get: (key) => storage.get(key),
  put: (key, value) => storage.put(key, value),
  delete: (key) => storage.delete(key),
  list: (prefix) => storage.list(prefix),
});

describe('the mount table over one storage', () => {
  it('shows a change made through one table at the next call of the other', async () => {
    const storage = new MemoryStorage();
    const [a, b] = [await tableOver(storage), await tableOver(storage)];
    expect(await paths(b)).toEqual(['auth/aws/', 'secret/']);
    await a.enable(kv('kv/'));
    expect((await b.find('kv/data/x'))?.definition.path).toBe('kv/');
    await b.remount('kv/', 'moved/');
    expect(await a.find('kv/data/x')).toBeUndefined();
    expect((await a.find('moved/data/x'))?.type).toBe('kv');
    await a.disable('moved/');
    expect(await paths(b)).toEqual(['auth/aws/', 'secret/']);
  });

  it('applies changes made at once through both, and refuses the second of one path', async () => {
    const storage = new MemoryStorage();
    const [a, b] = [await tableOver(storage), await tableOver(storage)];
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).enable(kv(`many-${String(i).padStart(2, '0')}/`))),
    );
    expect((await paths(a)).filter((path) => path.startsWith('many-'))).toHaveLength(10);
    const raced = await Promise.allSettled([a.enable(kv('once/')), b.enable(kv('once/'))]);
    expect(raced.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = raced.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as Error).message).toBe('path is already in use at once/');
  });

  it('works over a storage without commit, for one process', async () => {
    const table = await tableOver(plain(new MemoryStorage()));
    await Promise.all([table.enable(kv('one/')), table.enable(kv('two/'))]);
    expect(await paths(table)).toEqual(['auth/aws/', 'one/', 'secret/', 'two/']);
    await table.disable('one/');
    expect(await paths(table)).toEqual(['auth/aws/', 'secret/', 'two/']);
  });

  it('serves the table last read while the storage cannot be read', async () => {
    const storage = new MemoryStorage();
    let down = false;
    const flaky: Storage = {
      ...plain(storage),
      get: async (key) => {
        if (down) throw new Error('storage unreachable');
        return storage.get(key);
      },
    };
    const table = await tableOver(flaky);
    down = true;
    expect(await paths(table)).toEqual(['auth/aws/', 'secret/']);
  });

  it('erases a removed mount’s data, and only its own', async () => {
    const storage = new MemoryStorage();
    const table = await tableOver(storage);
    await table.enable(kv('gone/'));
    await table.enable(kv('kept/'));
    const engineOf = async (path: string) => (await table.find(path))!.engine as KvEngine;
    await (await engineOf('gone/')).write('a/b', { n: 1 });
    await (await engineOf('kept/')).write('a/b', { n: 2 });
    const prefixOf = async (path: string) => (await table.find(path))!.definition.storagePrefix;
    const gone = await prefixOf('gone/');
    await table.disable('gone/');
    expect(await storage.list(gone)).toEqual([]);
    expect((await (await engineOf('kept/')).read('a/b')).data).toEqual({ n: 2 });
  });
});
