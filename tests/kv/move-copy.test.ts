import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import type { EngineRequest } from '../../src/core/framework/request.js';
import { KvEngine } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { SqliteStorage } from '../../src/sqlite.js';
import { allKeys, kvProblems } from '../campaign/support/invariants.js';
import { FaultyStorage, withoutCommit } from '../support/faulty-storage.js';
import { testStorage } from '../support/test-storage.js';
import { expectError, policy } from './helpers.js';

/** POST move/<key> and copy/<key>: a key with its whole history and metadata, all or nothing. */

const START = '2026-03-01T12:00:00Z';

const directory = mkdtempSync(join(tmpdir(), 'strongroom-kv-move-'));
/** Every SQLite file the sweeps open, closed before their folder goes. */
const opened: SqliteStorage[] = [];
afterAll(async () => {
  await Promise.all(opened.map((storage) => storage.close()));
  rmSync(directory, { recursive: true, force: true });
});
const backends: [string, () => Storage][] = [
  ['MemoryStorage', () => new MemoryStorage()],
  [
    'SqliteStorage',
    () => {
      const storage = new SqliteStorage({ path: join(directory, `move-${opened.length}.db`), synchronous: 'normal' });
      opened.push(storage);
      return storage;
    },
  ],
];

/** Twelve versions (two spilled to entry documents), custom metadata, one deleted and one destroyed version. */
const HISTORY: EngineRequest[] = [
  { method: 'POST', path: 'metadata/a', body: { max_versions: 20, custom_metadata: { team: 'blue' } } },
  ...Array.from({ length: 12 }, (_, i): EngineRequest => ({
    method: 'POST',
    path: 'data/a',
    body: { data: { v: i + 1 } },
  })),
  { method: 'POST', path: 'delete/a', body: { versions: [2] } },
  { method: 'PUT', path: 'destroy/a', body: { versions: [3] } },
  { method: 'POST', path: 'data/other', body: { data: { other: true } } },
];

async function engineWith(storage: Storage) {
  const kv = new KvEngine({ storage, clock: new ManualClock(START) });
  for (const step of HISTORY) expect((await kv.handle(step)).status).toBeLessThan(300);
  return kv;
}

/** What a client sees of a key: its metadata and every version's read. */
async function key(storage: Storage, path: string): Promise<unknown> {
  const kv = new KvEngine({ storage, clock: new ManualClock(START) });
  const metadata = await kv.handle({ method: 'GET', path: `metadata/${path}` });
  if (metadata.status !== 200) return undefined;
  const reads = [];
  for (let version = 1; version <= 12; version++)
    reads.push(await kv.handle({ method: 'GET', path: `data/${path}`, query: { version: String(version) } }));
  return { metadata, reads };
}

const move = (to: string, extra: Record<string, unknown> = {}): EngineRequest => ({
  method: 'POST',
  path: 'move/a',
  body: { to, ...extra },
});
const copy = (to: string): EngineRequest => ({ method: 'POST', path: 'copy/a', body: { to } });

describe('move and copy', () => {
  it('move carries every version, its state and the metadata to the new path, and leaves nothing at the old one', async () => {
    const storage = testStorage();
    const kv = await engineWith(storage);
    const before = await key(storage, 'a');
    expect((await kv.handle(move('b/c', { cas: 12 }))).status).toBe(204);
    expect(await key(storage, 'b/c')).toEqual(before);
    expect(await key(storage, 'a')).toBeUndefined();
    expect((await allKeys(storage, 'kv/')).filter((name) => name.startsWith('kv/entries/a/'))).toEqual([]);
    expect(await kvProblems(storage, { tidy: true })).toEqual([]);
    expect(
      (await kv.handle({ method: 'POST', path: 'data/b/c', body: { data: { v: 13 }, options: { cas: 12 } } })).status,
    ).toBe(200);
  });

  it('copy gives the new key data of its own, so changing one leaves the other alone', async () => {
    const storage = testStorage();
    const kv = await engineWith(storage);
    const before = await key(storage, 'a');
    expect((await kv.handle(copy('b'))).status).toBe(204);
    expect(await key(storage, 'b')).toEqual(before);
    expect(await key(storage, 'a')).toEqual(before);
    expect(await kvProblems(storage, { tidy: true })).toEqual([]);
    await kv.destroyVersions('b', [1, 12]);
    expect((await kv.read('a', { version: 12 })).data).toEqual({ v: 12 });
    expect(await kvProblems(storage, { tidy: true })).toEqual([]);
  });

  it('typed methods do the same', async () => {
    const storage = testStorage();
    const kv = await engineWith(storage);
    await kv.copy('a', 'b');
    await kv.move('b', 'c', { cas: 12 });
    expect((await kv.read('c', { version: 11 })).data).toEqual({ v: 11 });
    await expect(kv.readMetadata('b')).rejects.toThrow(/no key/);
  });

  it('refuses a cas mismatch, an existing target, a missing source, a bad target path and the same key', async () => {
    const kv = await engineWith(testStorage());
    expectError(await kv.handle(move('b', { cas: 11 })), 400, 'check-and-set parameter did not match');
    expectError(await kv.handle(move('other')), 400, 'already exists');
    expectError(await kv.handle({ method: 'POST', path: 'move/missing', body: { to: 'b' } }), 404, 'no key');
    expectError(await kv.handle(move('b/../c')), 400, 'b/../c');
    expectError(await kv.handle(move('b/')), 400, 'invalid key path');
    expectError(await kv.handle(move('a')), 400, 'same key');
    expectError(await kv.handle({ method: 'POST', path: 'move/a', body: {} }), 400, 'to');
    expect((await kv.readMetadata('a')).current_version).toBe(12);
  });

  it('is refused with a clear 400 over a storage without atomic commits', async () => {
    const kv = await engineWith(withoutCommit(testStorage()));
    expectError(await kv.handle(move('b')), 400, 'needs a storage with atomic commits');
    expectError(await kv.handle(copy('b')), 400, 'needs a storage with atomic commits');
  });

  it('asks read and delete on the source (read only for a copy) and create on the target', async () => {
    const kv = await engineWith(testStorage());
    const all = ['update:move/a', 'update:copy/a', 'read:data/a', 'delete:metadata/a', 'create:data/b'];
    for (const missing of all) {
      const { authorize } = policy(...all.filter((grant) => grant !== missing));
      const request = missing === 'update:copy/a' ? copy('b') : move('b');
      expect((await kv.handle({ ...request, authorize })).status).toBe(403);
    }
    expect(
      (await kv.handle({ ...copy('b'), authorize: policy('update:copy/a', 'read:data/a', 'create:data/b').authorize }))
        .status,
    ).toBe(204);
    expect(
      (await kv.handle({ ...move('c'), authorize: policy(...all.slice(0, 4), 'create:data/c').authorize })).status,
    ).toBe(204);
  });

  describe.each([
    ['move', move('b')],
    ['copy', copy('b')],
  ])('%s interrupted by a storage fault at every step leaves the old state or the new', (_name, request) => {
    it.each(backends)('never both, never neither, over %s', async (_backend, open) => {
      const reference = open();
      const before = { a: await key(reference, 'a'), b: undefined };
      await (await engineWith(reference)).handle(request);
      const after = { a: await key(reference, 'a'), b: await key(reference, 'b') };
      let faults = 0;
      for (let n = 1; ; n++) {
        const inner = open();
        const faulty = new FaultyStorage(inner);
        const kv = await engineWith(faulty);
        const old = { a: await key(inner, 'a'), b: undefined };
        faulty.arm(n);
        const response = await kv.handle(request);
        if (!faulty.failed) break;
        faults += 1;
        const state = { a: await key(inner, 'a'), b: await key(inner, 'b') };
        if (response.status === 204)
          expect(state).toEqual({ ...after, ...(request.path.startsWith('copy') ? { a: old.a } : {}) });
        else {
          expect(response.status).toBe(500);
          expect(state).toEqual(old);
        }
        expect(await kvProblems(inner, { tidy: true })).toEqual([]);
      }
      expect(faults).toBeGreaterThan(3);
      expect(before.b).toBeUndefined();
    });
  });
});

describe('DELETE metadata/<folder>/?recursive=true', () => {
  const tree = ['t/x', 't/y/z', 't/y/w', 't/y/w/deeper', 'tt', 'u'];

  async function treeEngine(storage: Storage) {
    const kv = new KvEngine({ storage, clock: new ManualClock(START) });
    await kv.writeMetadata('t/y/z', { max_versions: 20 });
    for (const path of tree) for (let v = 1; v <= (path === 't/y/z' ? 12 : 2); v++) await kv.write(path, { path, v });
    return kv;
  }

  it('removes every key below the folder, whole, and nothing else', async () => {
    const storage = testStorage();
    const kv = await treeEngine(storage);
    expect((await kv.handle({ method: 'DELETE', path: 'metadata/t/', query: { recursive: 'true' } })).status).toBe(204);
    expect(await kv.list('')).toEqual(['tt', 'u']);
    expect(
      (await allKeys(storage, 'kv/')).filter(
        (name) => name.startsWith('kv/metadata/t/') || name.startsWith('kv/entries/t/'),
      ),
    ).toEqual([]);
    expect(await kvProblems(storage, { tidy: true })).toEqual([]);
  });

  it('without recursive, a folder is still no key', async () => {
    const kv = await treeEngine(testStorage());
    expect((await kv.handle({ method: 'DELETE', path: 'metadata/t/' })).status).toBe(404);
    expectError(
      await kv.handle({ method: 'DELETE', path: 'metadata/', query: { recursive: 'true' } }),
      400,
      'missing path',
    );
    expect(await kv.list('t/')).toEqual(['x', 'y/']);
  });

  it('works in batches over more keys than one batch, with and without atomic commits', async () => {
    for (const storage of [testStorage(), withoutCommit(testStorage())]) {
      const kv = new KvEngine({ storage });
      await Promise.all(Array.from({ length: 250 }, (_, i) => kv.write(`big/${i % 7}/k${i}`, { i })));
      expect(await kv.deleteFolder('big')).toEqual({ removed: 250 });
      expect(await kv.list('')).toEqual([]);
      expect(await kvProblems(storage, { tidy: true })).toEqual([]);
    }
  });

  it('asks delete on every key of a batch before removing any of it', async () => {
    const kv = await treeEngine(testStorage());
    const { authorize, asked } = policy(
      'delete:metadata/t/',
      'list:metadata/t/',
      'delete:metadata/t/x',
      'delete:metadata/t/y/z',
      'delete:metadata/t/y/w',
    );
    expect(
      (await kv.handle({ method: 'DELETE', path: 'metadata/t/', query: { recursive: 'true' }, authorize })).status,
    ).toBe(403);
    expect(await kv.list('t/y/')).toEqual(['w', 'w/', 'z']);
    // Refused for the one key it may not delete, not for the folder.
    expect(asked.at(-1)).toEqual({ capability: 'delete', path: 'metadata/t/y/w/deeper' });
  });

  it('interrupted by a storage fault at any step, leaves every key whole or gone, and a rerun finishes', async () => {
    for (let n = 1; ; n++) {
      const inner = new MemoryStorage();
      const faulty = new FaultyStorage(inner);
      const kv = await treeEngine(faulty);
      faulty.arm(n);
      const response = await kv.handle({ method: 'DELETE', path: 'metadata/t/', query: { recursive: 'true' } });
      if (!faulty.failed) break;
      expect([204, 500]).toContain(response.status);
      expect(await kvProblems(inner, { tidy: true })).toEqual([]);
      for (const path of tree) {
        const state = await key(inner, path);
        if (state !== undefined) expect((state as { metadata: { status: number } }).metadata.status).toBe(200);
      }
      expect((await kv.handle({ method: 'DELETE', path: 'metadata/t/', query: { recursive: 'true' } })).status).toBe(
        204,
      );
      expect(await kv.list('')).toEqual(['tt', 'u']);
    }
  });
});
