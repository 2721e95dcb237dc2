import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import type { EngineRequest } from '../../src/core/framework/request.js';
import { KvEngine } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { allKeys, kvKeyState, kvProblems } from '../campaign/support/invariants.js';
import { FaultyStorage, withoutCommit, withoutCompareAndPut } from '../support/faulty-storage.js';
import { PausedStorage } from '../support/paused-storage.js';
import { testStorage } from '../support/test-storage.js';

/**
 * A process that dies mid-change (every storage call from some point on fails) leaves the state before or after the
 * change; over a storage without atomic commits it may also leave unreferenced data, which `reclaimOrphans` removes
 * once the grace period has passed, and never while a writer may still reference it.
 */

const START = '2026-03-01T12:00:00Z';
const GRACE_PASSED = 16 * 60;

const W = (data: unknown): EngineRequest => ({ method: 'POST', path: 'data/foo', body: { data } });
const MD = (body: unknown): EngineRequest => ({ method: 'POST', path: 'metadata/foo', body });
const history = (count: number) => Array.from({ length: count }, (_, i) => W({ v: i + 1 }));

/** `alsoAllowed`: a state a crash may also leave (a metadata delete without atomic commits destroys every version first). */
const scenarios: { name: string; prepare: EngineRequest[]; request: EngineRequest; alsoAllowed?: EngineRequest }[] = [
  { name: 'write of a new key', prepare: [], request: W({ v: 1 }) },
  { name: 'write that prunes', prepare: [MD({ max_versions: 2 }), ...history(2)], request: W({ v: 3 }) },
  {
    name: 'write that spills and prunes entry documents',
    prepare: [MD({ max_versions: 12 }), ...history(13)],
    request: W({ v: 14 }),
  },
  {
    name: 'destroy of spilled versions',
    prepare: [MD({ max_versions: 20 }), ...history(12)],
    request: { method: 'PUT', path: 'destroy/foo', body: { versions: [1, 12] } },
  },
  {
    name: 'metadata delete of a key with spilled versions',
    prepare: [MD({ max_versions: 20 }), ...history(12)],
    request: { method: 'DELETE', path: 'metadata/foo' },
    alsoAllowed: {
      method: 'PUT',
      path: 'destroy/foo',
      body: { versions: Array.from({ length: 12 }, (_, i) => i + 1) },
    },
  },
];

const variants: [string, (storage: MemoryStorage) => Storage][] = [
  ['with atomic commits', (storage) => storage],
  ['with compareAndPut only', withoutCommit],
  ['without compareAndPut', withoutCompareAndPut],
];

/** What a client sees of the key: its metadata and every version's data. */
async function visible(storage: Storage): Promise<unknown> {
  const kv = new KvEngine({ storage, clock: new ManualClock(START) });
  const metadata = await kv.handle({ method: 'GET', path: 'metadata/foo' });
  const current =
    metadata.status === 200 ? (metadata.body as { data: { current_version: number } }).data.current_version : 0;
  const reads = [];
  for (let version = 1; version <= current; version++)
    reads.push(await kv.handle({ method: 'GET', path: 'data/foo', query: { version: String(version) } }));
  return { metadata, reads };
}

/** Entry documents that no kept version of an existing key owns. */
async function orphanDocuments(storage: Storage): Promise<string[]> {
  const orphans: string[] = [];
  for (const key of await allKeys(storage, 'kv/entries/')) {
    const name = key.slice('kv/entries/'.length);
    const path = name.slice(0, name.lastIndexOf('/'));
    const version = Number(name.slice(name.lastIndexOf('/') + 1));
    const state = await kvKeyState(storage, 'kv/', path);
    const from = Math.max(Number(state?.record.oldest_version), 1);
    if (!state || version < from || version > Number(state.record.current_version)) orphans.push(key);
  }
  return orphans;
}

async function reclaim(storage: Storage, seconds: number) {
  const clock = new ManualClock(START);
  clock.advance(seconds);
  return new KvEngine({ storage, clock }).reclaimOrphans();
}

describe.each(variants)('a crash at every storage call, then the reclaim, %s', (_name, variant) => {
  it.each(scenarios)('$name', async ({ prepare, request, alsoAllowed }) => {
    const prepared = async () => {
      const inner = new MemoryStorage();
      const faulty = new FaultyStorage(variant(inner));
      const kv = new KvEngine({ storage: faulty, clock: new ManualClock(START) });
      for (const step of prepare) expect((await kv.handle(step)).status).toBeLessThan(300);
      return { inner, faulty, kv };
    };
    const reference = await prepared();
    const before = await visible(reference.inner);
    expect((await reference.kv.handle(request)).status).toBeLessThan(300);
    const after = await visible(reference.inner);
    const allowed = [before, after];
    if (alsoAllowed) {
      const destroyed = await prepared();
      await destroyed.kv.handle(alsoAllowed);
      allowed.push(await visible(destroyed.inner));
    }

    let crashes = 0;
    for (let n = 1; ; n++) {
      const { inner, faulty, kv } = await prepared();
      faulty.arm(n, { crash: true });
      const response = await kv.handle(request);
      if (!faulty.failed) break;
      crashes += 1;
      const state = await visible(inner);
      if (response.status < 300) expect(state).toEqual(after);
      else expect(allowed).toContainEqual(state);
      const result = await reclaim(variant(inner), GRACE_PASSED);
      expect(result.complete).toBe(true);
      expect(await kvProblems(inner)).toEqual([]);
      expect(await orphanDocuments(inner)).toEqual([]);
      expect(await visible(inner)).toEqual(state);
    }
    expect(crashes).toBeGreaterThan(2);
  });
});

describe('the reclaim spares what a writer may still reference', () => {
  it('leaves data younger than the grace period, and removes it once the period has passed', async () => {
    const inner = new MemoryStorage();
    const faulty = new FaultyStorage(withoutCommit(inner));
    const kv = new KvEngine({ storage: faulty, clock: new ManualClock(START) });
    await kv.write('foo', { v: 1 });
    faulty.arm(1, { crash: true, only: ['compareAndPut'] });
    await expect(kv.write('foo', { v: 2 })).rejects.toThrow();
    expect(await kvProblems(inner)).toEqual([expect.stringContaining('left behind for good')]);
    expect(await reclaim(withoutCommit(inner), 14 * 60)).toEqual({ blobs: 0, entries: 0, complete: true });
    expect(await reclaim(withoutCommit(inner), GRACE_PASSED)).toEqual({ blobs: 1, entries: 0, complete: true });
    expect(await kvProblems(inner)).toEqual([]);
    expect((await new KvEngine({ storage: inner }).read('foo')).data).toEqual({ v: 1 });
  });

  it('never removes the data of a write that is about to commit', async () => {
    const inner = testStorage();
    const shared = new PausedStorage(withoutCommit(inner));
    const clock = new ManualClock(START);
    const writer = new KvEngine({ storage: shared, clock });
    const held = shared.pause((call) => call.name === 'compareAndPut' && call.keys.includes('kv/metadata/foo'));
    const writing = writer.write('foo', { v: 1 });
    await held.reached;
    expect(await new KvEngine({ storage: withoutCommit(inner), clock }).reclaimOrphans()).toEqual({
      blobs: 0,
      entries: 0,
      complete: true,
    });
    held.resume();
    await writing;
    expect((await writer.read('foo')).data).toEqual({ v: 1 });
  });

  it('a write that outlived the writer deadline refuses to commit, leaving nothing behind', async () => {
    const inner = testStorage();
    const shared = new PausedStorage(withoutCommit(inner));
    const clock = new ManualClock(START);
    const writer = new KvEngine({ storage: shared, clock });
    await writer.write('foo', { v: 1 });
    const held = shared.pause((call) => call.name === 'put' && call.keys[0]!.startsWith('kv/versions/'));
    const writing = writer.handle({ method: 'POST', path: 'data/foo', body: { data: { v: 2 } } });
    await held.reached;
    clock.advance(61);
    held.resume();
    const response = await writing;
    expect(response.status).toBe(500);
    expect((await writer.read('foo')).data).toEqual({ v: 1 });
    expect(await kvProblems(inner, { tidy: true })).toEqual([]);
  });

  it('validates its options', async () => {
    const kv = new KvEngine({ storage: withoutCommit(testStorage()) });
    await expect(kv.reclaimOrphans({ limit: 0 })).rejects.toThrow(/limit/);
    await expect(kv.reclaimOrphans({ graceSeconds: 10 })).rejects.toThrow(/graceSeconds/);
  });
});
