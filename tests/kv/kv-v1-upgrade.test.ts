import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { KvEngine, KvV1Engine, upgradeKvV1ToV2, type Storage } from '../../src/index.js';
import { testStorage } from '../support/test-storage.js';
import { dataOf } from './helpers.js';

const KEYS: Record<string, Record<string, unknown>> = {
  'app/db': { password: 'p', ttl: '1h' },
  'app/nested/deep': { list: [1, { two: 2 }] },
  app: { top: true },
  solo: { n: 1 },
  'z/last': { z: 'z' },
};

/** A version 1 engine's keys, written a minute apart from WRITTEN. */
async function versionOne(storage: Storage, clock = new ManualClock('2026-01-01T00:00:00Z')) {
  const v1 = new KvV1Engine({ storage, clock, storagePrefix: 'mount/' });
  for (const [path, data] of Object.entries(KEYS)) {
    await v1.write(path, data);
    clock.advance(60);
  }
  return v1;
}

/** Every key served by a KvEngine on the prefix: as version 1 of the same data, and nothing left for version 1. */
async function expectUpgraded(storage: Storage) {
  const kv = new KvEngine({ storage, storagePrefix: 'mount/' });
  for (const [path, data] of Object.entries(KEYS)) {
    const read = await kv.read(path);
    expect(read.data).toEqual(data);
    const metadata = await kv.readMetadata(path);
    expect(metadata.current_version, path).toBe(1);
    expect(metadata.versions['1']!.created_by).toEqual({ actor: 'kv_upgrade', operation: 'upgrade' });
  }
  expect(await kv.list('app/')).toEqual(['db', 'nested/']);
  expect(await new KvV1Engine({ storage, storagePrefix: 'mount/' }).list('')).toEqual([]);
}

const MUTATIONS = new Set(['put', 'delete', 'commit', 'compareAndPut', 'compareAndDelete']);

/** The storage, whose `failAt`-th change (counting from 1) and every later one fails until `healed`. */
function failingFrom(storage: Storage, failAt: number) {
  let changes = 0;
  const state = { healed: false, failed: false };
  const wrapped = new Proxy(storage, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (MUTATIONS.has(String(name)) && !state.healed && ++changes >= failAt) {
          state.failed = true;
          return Promise.reject(new Error('injected storage failure'));
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { storage: wrapped, state };
}

describe('upgradeKvV1ToV2', () => {
  it('turns each key into version 1 of a KV v2 key on the same prefix, dated when it was written', async () => {
    const storage = testStorage();
    const v1 = await versionOne(storage);
    expect(await v1.read('app/db')).toEqual(KEYS['app/db']);
    expect(await upgradeKvV1ToV2({ storage, storagePrefix: 'mount/' })).toEqual({ upgraded: 5 });
    await expectUpgraded(storage);
    const kv = new KvEngine({ storage, storagePrefix: 'mount/' });
    expect((await kv.readMetadata('app/db')).versions['1']!.created_time).toBe('2026-01-01T00:00:00Z');
    expect((await kv.read('solo')).metadata.created_time).toBe('2026-01-01T00:03:00Z');
    const answer = await kv.handle({ method: 'GET', path: 'metadata/solo' });
    expect(dataOf(answer).last_updated_by).toEqual({ actor: 'kv_upgrade', operation: 'upgrade' });
  });

  it('is idempotent: a second run moves nothing and adds no version', async () => {
    const storage = testStorage();
    await versionOne(storage);
    await upgradeKvV1ToV2({ storage, storagePrefix: 'mount/' });
    expect(await upgradeKvV1ToV2({ storage, storagePrefix: 'mount/' })).toEqual({ upgraded: 0 });
    await expectUpgraded(storage);
    expect(await upgradeKvV1ToV2({ storage: testStorage() })).toEqual({ upgraded: 0 });
  });

  it('resumes after a storage that fails midway, at every point, without moving any key twice', async () => {
    for (let failAt = 1; ; failAt++) {
      const healthy = testStorage();
      await versionOne(healthy);
      const { storage, state } = failingFrom(healthy, failAt);
      const outcome = await upgradeKvV1ToV2({ storage, storagePrefix: 'mount/' }).then(
        () => 'finished',
        (error: unknown) => error,
      );
      if (outcome === 'finished') {
        // This run reached no failure point before finishing: every earlier point has been tried.
        expect(state.failed).toBe(false);
        await expectUpgraded(healthy);
        expect(failAt).toBeGreaterThan(Object.keys(KEYS).length);
        return;
      }
      expect(String(outcome)).toContain('storage');
      state.healed = true;
      await upgradeKvV1ToV2({ storage, storagePrefix: 'mount/' });
      await expectUpgraded(healthy);
    }
  });

  it('three runs at once move each key once', async () => {
    const storage = testStorage();
    await versionOne(storage);
    const runs = await Promise.all([1, 2, 3].map(() => upgradeKvV1ToV2({ storage, storagePrefix: 'mount/' })));
    expect(runs.reduce((sum, run) => sum + run.upgraded, 0)).toBe(5);
    await expectUpgraded(storage);
  });

  it('a version 1 write that lands after its key was moved is moved too, as the next version', async () => {
    const healthy = testStorage();
    await versionOne(healthy);
    const v1 = new KvV1Engine({ storage: healthy, storagePrefix: 'mount/' });
    let raced = false;
    // Right after the version 2 head of `solo` is committed, a version 1 write changes `solo` again.
    const storage = new Proxy(healthy, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const result: unknown = await (value as (...a: unknown[]) => unknown).apply(target, args);
          const touched = JSON.stringify(args[0] ?? '').includes('mount/metadata/solo');
          if (!raced && touched && MUTATIONS.has(String(name))) {
            raced = true;
            await v1.write('solo', { n: 2 });
          }
          return result;
        };
      },
    });
    await upgradeKvV1ToV2({ storage, storagePrefix: 'mount/' });
    expect(raced).toBe(true);
    const kv = new KvEngine({ storage: healthy, storagePrefix: 'mount/' });
    expect(await kv.read('solo')).toMatchObject({ data: { n: 2 }, metadata: { version: 2 } });
    expect((await kv.read('solo', { version: 1 })).data).toEqual({ n: 1 });
    expect(await v1.list('')).toEqual([]);
  });

  it('refuses to run without a storage', async () => {
    await expect(upgradeKvV1ToV2({} as never)).rejects.toThrow('needs a storage');
  });
});
