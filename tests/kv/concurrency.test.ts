import { describe, expect, it } from 'vitest';
import { KvEngine } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { kvProblems } from '../campaign/support/invariants.js';
import { withoutCommit, withoutCompareAndPut } from '../support/faulty-storage.js';
import { ManualClock } from '../../src/lib/clocks.js';
import { testStorage } from '../support/test-storage.js';
import { dataOf, MERGE, raceWritesWithChanges } from './helpers.js';

/** compareAndPut calls that found the value changed: proof that the tests below really race. */
const lostRaces = { count: 0 };

/** Lets other tasks run before every storage call, a deterministic number of times, so that writers interleave. */
function interleaving(inner: Storage): Storage {
  let seed = 7;
  const pause = async () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    for (let i = seed % 4; i > 0; i--) await new Promise((resolve) => setImmediate(resolve));
  };
  const wrapped: Storage = {
    get: async (key) => (await pause(), inner.get(key)),
    put: async (key, value) => (await pause(), inner.put(key, value)),
    delete: async (key) => (await pause(), inner.delete(key)),
    list: async (prefix) => (await pause(), inner.list(prefix)),
  };
  const cas = inner.compareAndPut?.bind(inner);
  if (cas) {
    wrapped.compareAndPut = async (key, expected, value) => {
      await pause();
      const done = await cas(key, expected, value);
      if (!done) lostRaces.count += 1;
      return done;
    };
  }
  // Forwarded as the storages shared by processes have it: without it a delete may take a racing write's version
  // with it, leaving that version's data to the orphan reclaim (the Storage port says so), and the counts below differ.
  const cad = inner.compareAndDelete?.bind(inner);
  if (cad) wrapped.compareAndDelete = async (key, expected) => (await pause(), cad(key, expected));
  return wrapped;
}

async function blobCount(storage: Storage): Promise<number> {
  let count = 0;
  for (const folder of await storage.list('kv/versions/'))
    count += (await storage.list(`kv/versions/${folder}`)).length;
  return count;
}

/** Two engines, as in two processes, over one storage. */
function twoProcesses() {
  const storage = testStorage();
  const engines = [new KvEngine({ storage: interleaving(storage) }), new KvEngine({ storage: interleaving(storage) })];
  return { storage, engines, engine: (i: number) => engines[i % 2] as KvEngine };
}

async function readAll(kv: KvEngine, path: string) {
  const meta = dataOf(await kv.handle({ method: 'GET', path: `metadata/${path}` }));
  const data = [];
  for (const version of Object.keys(meta.versions)) {
    data.push(dataOf(await kv.handle({ method: 'GET', path: `data/${path}`, query: { version } })).data);
  }
  return { meta, data };
}

describe('several engines over one storage with compareAndPut', () => {
  it('keep cas exact: every writer wins exactly one version', async () => {
    const { engine } = twoProcesses();
    await engine(0).handle({ method: 'POST', path: 'config', body: { max_versions: 100 } });
    const writers = 24;
    let conflicts = 0;
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        const kv = engine(writer);
        for (;;) {
          const meta = await kv.handle({ method: 'GET', path: 'metadata/counter' });
          const current = meta.status === 200 ? dataOf(meta).current_version : 0;
          const response = await kv.handle({
            method: 'POST',
            path: 'data/counter',
            body: { data: { writer }, options: { cas: current } },
          });
          if (response.status === 200) return;
          expect(response.status).toBe(400);
          conflicts += 1;
        }
      }),
    );
    const { meta, data } = await readAll(engine(1), 'counter');
    expect(meta.current_version).toBe(writers);
    expect(data.map((entry: { writer: number }) => entry.writer).sort((a: number, b: number) => a - b)).toEqual(
      Array.from({ length: writers }, (_, i) => i),
    );
    expect(conflicts).toBeGreaterThan(0);
  });

  it('lose no version under blind writes, and leave no blob of a lost race behind', async () => {
    const { storage, engine } = twoProcesses();
    await engine(0).handle({ method: 'POST', path: 'metadata/k', body: { max_versions: 100 } });
    const racesBefore = lostRaces.count;
    const writes = 30;
    const responses = await Promise.all(
      Array.from({ length: writes }, (_, i) =>
        engine(i).handle({ method: 'POST', path: 'data/k', body: { data: { i } } }),
      ),
    );
    expect(responses.map((response) => dataOf(response).version).sort((a, b) => a - b)).toEqual(
      Array.from({ length: writes }, (_, i) => i + 1),
    );
    const { meta, data } = await readAll(engine(0), 'k');
    expect(meta.current_version).toBe(writes);
    expect(new Set(data.map((entry: { i: number }) => entry.i)).size).toBe(writes);
    expect(await blobCount(storage)).toBe(writes);
    expect(lostRaces.count).toBeGreaterThan(racesBefore);
  });

  it('keep every change of spilled versions while the other engine writes and spills', async () => {
    const { storage, engine } = twoProcesses();
    await engine(0).handle({ method: 'POST', path: 'metadata/k', body: { max_versions: 100 } });
    for (let i = 1; i <= 20; i++) await engine(0).handle({ method: 'POST', path: 'data/k', body: { data: { i } } });
    const racesBefore = lostRaces.count;
    await raceWritesWithChanges(engine(0), engine(1), 1);
    expect(await kvProblems(storage)).toEqual([]);
    expect(lostRaces.count).toBeGreaterThan(racesBefore);
  });

  it('lose no update under concurrent patches', async () => {
    const { engine } = twoProcesses();
    await engine(0).handle({ method: 'POST', path: 'data/doc', body: { data: { start: true } } });
    const racesBefore = lostRaces.count;
    const patches = 20;
    await Promise.all(
      Array.from({ length: patches }, (_, i) =>
        engine(i)
          .handle({ method: 'PATCH', path: 'data/doc', headers: MERGE, body: { data: { [`member${i}`]: i } } })
          .then((response) => expect(response.status).toBe(200)),
      ),
    );
    const read = dataOf(await engine(1).handle({ method: 'GET', path: 'data/doc' }));
    expect(read.metadata.version).toBe(patches + 1);
    expect(Object.keys(read.data)).toHaveLength(patches + 1);
    expect(lostRaces.count).toBeGreaterThan(racesBefore);
  });

  it('prune exactly, keeping only the data of the kept versions', async () => {
    const { storage, engine } = twoProcesses();
    await engine(0).handle({ method: 'POST', path: 'metadata/k', body: { max_versions: 3 } });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => engine(i).handle({ method: 'POST', path: 'data/k', body: { data: { i } } })),
    );
    const { meta, data } = await readAll(engine(1), 'k');
    expect(Object.keys(meta.versions)).toEqual(['18', '19', '20']);
    expect(data).toHaveLength(3);
    expect(await blobCount(storage)).toBe(3);
  });

  it('delete a key while the other engine writes to it, leaving it consistent', async () => {
    const { storage, engine } = twoProcesses();
    await engine(0).handle({ method: 'POST', path: 'data/k', body: { data: { first: true } } });
    await Promise.all([
      ...Array.from({ length: 6 }, (_, i) =>
        engine(1).handle({ method: 'POST', path: 'data/k', body: { data: { i } } }),
      ),
      engine(0).handle({ method: 'DELETE', path: 'metadata/k' }),
    ]);
    const meta = await engine(0).handle({ method: 'GET', path: 'metadata/k' });
    const kept =
      meta.status === 200
        ? Object.values(dataOf(meta).versions).filter((version) => !(version as { destroyed: boolean }).destroyed)
            .length
        : 0;
    expect(await blobCount(storage)).toBe(kept);
  });
});

describe('several engines over a storage with compareAndPut but no compareAndDelete', () => {
  it('delete keys while writes race, leaving at most unreferenced data that the orphan reclaim removes', async () => {
    const storage = testStorage();
    const clock = new ManualClock('2026-03-01T12:00:00Z');
    const engines = [0, 1].map(() => new KvEngine({ storage: interleaving(withoutCommit(storage)), clock }));
    const keys = Array.from({ length: 8 }, (_, i) => `k${i}`);
    for (const key of keys) {
      await engines[0]!.handle({ method: 'POST', path: `data/${key}`, body: { data: { first: true } } });
      await Promise.all([
        ...Array.from({ length: 6 }, (_, i) =>
          engines[1]!.handle({ method: 'POST', path: `data/${key}`, body: { data: { i } } }),
        ),
        engines[0]!.handle({ method: 'DELETE', path: `metadata/${key}` }),
      ]);
    }
    clock.advance(16 * 60);
    await engines[0]!.reclaimOrphans();
    let kept = 0;
    for (const key of keys) {
      const meta = await engines[0]!.handle({ method: 'GET', path: `metadata/${key}` });
      if (meta.status !== 200) continue;
      kept += Object.values(dataOf(meta).versions).filter(
        (version) => !(version as { destroyed: boolean }).destroyed,
      ).length;
    }
    expect(await blobCount(storage)).toBe(kept);
    expect(await kvProblems(storage)).toEqual([]);
  });
});

describe('one engine', () => {
  it('serialises concurrent writers to one key even without compareAndPut', async () => {
    const storage = testStorage();
    const kv = new KvEngine({ storage: interleaving(withoutCompareAndPut(storage)) });
    await kv.handle({ method: 'POST', path: 'data/doc', body: { data: {} } });
    await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        kv.handle({ method: 'PATCH', path: 'data/doc', headers: MERGE, body: { data: { [`m${i}`]: i } } }),
      ),
    );
    const read = dataOf(await kv.handle({ method: 'GET', path: 'data/doc' }));
    expect(read.metadata.version).toBe(16);
    expect(Object.keys(read.data)).toHaveLength(15);
  });

  it('lets different keys proceed independently', async () => {
    const kv = new KvEngine({ storage: interleaving(testStorage()) });
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => kv.handle({ method: 'POST', path: `data/key${i}`, body: { data: { i } } })),
    );
    const list = dataOf(await kv.handle({ method: 'LIST', path: 'metadata/' }));
    expect(list.keys).toHaveLength(10);
  });
});
