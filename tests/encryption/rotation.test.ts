import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  EncryptedStorage,
  KvEngine,
  MemoryStorage,
  UnknownKeyTerm,
  type Storage,
  type StorageOperation,
} from '../../src/index.js';
import { FaultyStorage, InjectedFault } from '../support/faulty-storage.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : new TextDecoder().decode(value));

/** The term each stored entry is sealed under (bytes 1-4 of the sealed format), keyring records aside. */
async function termsInStorage(inner: MemoryStorage): Promise<Map<string, number>> {
  const terms = new Map<string, number>();
  for (const key of await inner.listPage('', { recursive: true, limit: 100_000 })) {
    if (!key.startsWith('.encryption/')) terms.set(key, Buffer.from((await inner.get(key))!).readUInt32BE(1));
  }
  return terms;
}

async function fill(storage: Storage, count: number, prefix: string): Promise<void> {
  for (let i = 0; i < count; i++)
    await storage.put(`${prefix}/${String(i).padStart(4, '0')}`, bytes(`${prefix}-value-${i}`));
}

async function expectAllReadable(storage: Storage, count: number, prefix: string): Promise<void> {
  for (let i = 0; i < count; i++)
    expect(text(await storage.get(`${prefix}/${String(i).padStart(4, '0')}`))).toBe(`${prefix}-value-${i}`);
}

/** Memory whose next write of a given key first lets another process act: between a writer's seal and its write. */
class InterleavingStorage extends MemoryStorage {
  private pending: { key: string; action: () => Promise<void> } | undefined;

  beforeNextWriteOf(key: string, action: () => Promise<void>): void {
    this.pending = { key, action };
  }

  private async interleave(key: string): Promise<void> {
    const pending = this.pending;
    if (pending?.key !== key) return;
    this.pending = undefined;
    await pending.action();
  }

  override async put(key: string, value: Uint8Array): Promise<void> {
    await this.interleave(key);
    return super.put(key, value);
  }

  override async compareAndPut(key: string, expected: Uint8Array | undefined, value: Uint8Array): Promise<boolean> {
    await this.interleave(key);
    return super.compareAndPut(key, expected, value);
  }

  override async commit(operations: readonly StorageOperation[]): Promise<boolean> {
    for (const operation of operations) await this.interleave(operation.key);
    return super.commit(operations);
  }
}

describe('rotate and rewrap', () => {
  /** Two processes over one storage, both with the keyring of term 1, and `k` written under it. */
  async function rotatorAndStaleWriter() {
    const inner = new InterleavingStorage();
    const rootKey = randomBytes(32);
    const rotator = new EncryptedStorage({ storage: inner, key: rootKey });
    const stale = new EncryptedStorage({ storage: inner, key: rootKey });
    await rotator.put('k', bytes('before'));
    await stale.open();
    const expectResealed = async () => {
      expect(Buffer.from((await inner.get('k'))!).readUInt32BE(1)).toBe(2);
      expect(text(await rotator.get('k'))).toBe('after');
    };
    return { inner, rotator, stale, expectResealed };
  }

  it.each(['put', 'compareAndPut', 'commit', 'conditional commit'] as const)(
    'a writer whose keyring predates a rotation re-seals its %s that a concurrent rewrap passed before it landed',
    async (method) => {
      const { inner, rotator, stale, expectResealed } = await rotatorAndStaleWriter();
      // The stale writer seals with term 1; before its write lands, the other process rotates, rewraps and retires 1.
      inner.beforeNextWriteOf('k', async () => {
        await rotator.rotate();
        expect((await rotator.rewrap()).retired).toEqual([1]);
      });
      if (method === 'put') await stale.put('k', bytes('after'));
      else if (method === 'compareAndPut')
        expect(await stale.compareAndPut!('k', bytes('before'), bytes('after'))).toBe(true);
      else {
        const condition = method === 'commit' ? {} : { expected: bytes('before') };
        expect(
          await stale.commit!([
            { type: 'put', key: 'k', value: bytes('after'), ...condition },
            { type: 'put', key: 'k2', value: bytes('also') },
          ]),
        ).toBe(true);
        expect(text(await rotator.get('k2'))).toBe('also');
      }
      await expectResealed();
    },
  );

  it('a stale write is re-sealed even when another read of the same process loaded the new keyring before the write landed', async () => {
    const { inner, rotator, stale, expectResealed } = await rotatorAndStaleWriter();
    inner.beforeNextWriteOf('k', async () => {
      await rotator.rotate();
      await rotator.put('other', bytes('sealed under term 2'));
      expect((await rotator.rewrap()).retired).toEqual([1]);
      // A concurrent read in the writer's process meets term 2 and loads the new keyring.
      expect(text(await stale.get('other'))).toBe('sealed under term 2');
    });
    await stale.put('k', bytes('after'));
    await expectResealed();
  });

  it('new writes use the new term, old ones stay readable, rewrap moves everything and retires the old term', async () => {
    const inner = new MemoryStorage();
    const storage = new EncryptedStorage({ storage: inner, key: randomBytes(32) });
    await fill(storage, 30, 'old');
    expect(await storage.rotate()).toBe(2);
    await fill(storage, 5, 'new');
    const terms = await termsInStorage(inner);
    expect(terms.get('old/0000')).toBe(1);
    expect(terms.get('new/0000')).toBe(2);
    await expectAllReadable(storage, 30, 'old');

    const report = await storage.rewrap({ batchSize: 7 });
    expect(report).toEqual({ visited: 35, rewrapped: 30, retired: [1], done: true });
    expect(new Set((await termsInStorage(inner)).values())).toEqual(new Set([2]));
    expect(await storage.keyringStatus()).toMatchObject({ active: 2, terms: [2], retired: [1] });
    await expectAllReadable(storage, 30, 'old');
    await expectAllReadable(storage, 5, 'new');
    expect(await storage.rewrap()).toEqual({ visited: 0, rewrapped: 0, retired: [], done: true });
  });

  it('a value of a retired term is a typed error', async () => {
    const inner = new MemoryStorage();
    const storage = new EncryptedStorage({ storage: inner, key: randomBytes(32) });
    await storage.put('k', bytes('v'));
    const sealedUnderOne = await inner.get('k');
    await storage.rotate();
    await storage.rewrap();
    await inner.put('k', sealedUnderOne!);
    await expect(storage.get('k')).rejects.toThrow(UnknownKeyTerm);
    await expect(storage.get('k')).rejects.toThrow(/term 1, which was retired/);
  });

  it('works in bounded batches: maxBatches stops early, the next call continues', async () => {
    const inner = new MemoryStorage();
    const storage = new EncryptedStorage({ storage: inner, key: randomBytes(32) });
    await fill(storage, 50, 'k');
    await storage.rotate();
    // The first page also holds the (hidden) keyring record.
    const partial = await storage.rewrap({ batchSize: 10, maxBatches: 2 });
    expect(partial).toMatchObject({ retired: [], done: false });
    expect(partial.visited).toBeGreaterThanOrEqual(18);
    expect(partial.rewrapped).toBe(partial.visited);
    expect((await storage.keyringStatus()).terms).toEqual([1, 2]);
    const rest = await storage.rewrap({ batchSize: 10 });
    expect(rest.visited).toBeLessThanOrEqual(32);
    expect(rest).toMatchObject({ rewrapped: 50 - partial.rewrapped, retired: [1], done: true });
  });

  it('a rewrap that crashes midway resumes after its last batch: everything readable, the old term retired', async () => {
    const inner = new MemoryStorage();
    const rootKey = randomBytes(32);
    // FaultyStorage offers no listPage: this also walks the keys with list().
    const faulty = new FaultyStorage(inner);
    const first = new EncryptedStorage({ storage: faulty, key: rootKey });
    const kv = new KvEngine({ storage: first });
    for (let i = 0; i < 40; i++) await kv.handle({ method: 'POST', path: `data/s${i}`, body: { data: { n: i } } });
    await first.rotate();
    for (let i = 40; i < 45; i++) await kv.handle({ method: 'POST', path: `data/s${i}`, body: { data: { n: i } } });
    const total = (await termsInStorage(inner)).size;

    faulty.arm(30, { only: ['compareAndPut'] });
    await expect(first.rewrap({ batchSize: 8 })).rejects.toThrow(InjectedFault);
    const midway = await termsInStorage(inner);
    expect([...midway.values()].filter((term) => term === 1).length).toBeGreaterThan(0);
    expect([...midway.values()].filter((term) => term === 2).length).toBeGreaterThan(5);

    // A new process over the same storage: it resumes from the stored cursor instead of starting over.
    const restarted = new EncryptedStorage({ storage: inner, key: rootKey });
    const report = await restarted.rewrap({ batchSize: 8 });
    expect(report.done).toBe(true);
    expect(report.retired).toEqual([1]);
    expect(report.visited).toBeLessThan(total);
    expect(new Set((await termsInStorage(inner)).values())).toEqual(new Set([2]));
    const reader = new KvEngine({ storage: restarted });
    for (let i = 0; i < 45; i++) {
      const response = await reader.handle({ method: 'GET', path: `data/s${i}` });
      expect((response.body as { data: { data: unknown } }).data.data).toEqual({ n: i });
    }
  });

  it('two engines over one storage, rotating, rewrapping and writing concurrently, stay exact', async () => {
    const inner = new MemoryStorage();
    const rootKey = randomBytes(32);
    const barriers = [
      new EncryptedStorage({ storage: inner, key: rootKey }),
      new EncryptedStorage({ storage: inner, key: rootKey }),
    ];
    const engines = barriers.map((storage) => new KvEngine({ storage }));
    const keys = ['a', 'b', 'c', 'd'];
    const acknowledged = new Map<string, number[]>(keys.map((key) => [key, []]));
    // Keep every version, so that each acknowledged write can be read back.
    expect(
      (await engines[0]!.handle({ method: 'POST', path: 'config', body: { max_versions: 1000 } })).status,
    ).toBeLessThan(300);

    // Each writer appends its own numbers to a key through check-and-set, retrying on conflicts.
    const writer = async (engine: KvEngine, id: number) => {
      for (let i = 0; i < 25; i++) {
        const key = keys[(i + id) % keys.length] as string;
        const value = id * 1000 + i;
        for (;;) {
          const meta = await engine.handle({ method: 'GET', path: `metadata/${key}` });
          const version =
            meta.status === 200 ? (meta.body as { data: { current_version: number } }).data.current_version : 0;
          const write = await engine.handle({
            method: 'POST',
            path: `data/${key}`,
            body: { data: { value }, options: { cas: version } },
          });
          if (write.status === 200) {
            acknowledged.get(key)!.push(value);
            break;
          }
          expect(write.status).toBe(400);
        }
      }
    };
    const maintenance = async (storage: EncryptedStorage) => {
      for (let round = 0; round < 3; round++) {
        await storage.rotate();
        await storage.rewrap({ batchSize: 3 });
      }
    };
    await Promise.all([
      writer(engines[0]!, 1),
      writer(engines[1]!, 2),
      writer(engines[0]!, 3),
      writer(engines[1]!, 4),
      maintenance(barriers[0]!),
      maintenance(barriers[1]!),
    ]);
    // A last rewrap by a third process: it sees every entry, whoever wrote it with whichever keyring.
    const third = new EncryptedStorage({ storage: inner, key: rootKey });
    const final = await third.rewrap();
    expect(final.done).toBe(true);
    const status = await third.keyringStatus();
    expect(status.terms).toEqual([status.active]);
    expect(status.retired.length).toBe(status.active - 1);
    expect(new Set((await termsInStorage(inner)).values())).toEqual(new Set([status.active]));

    const reader = new KvEngine({ storage: third });
    for (const key of keys) {
      const values = acknowledged.get(key)!;
      const meta = await reader.handle({ method: 'GET', path: `metadata/${key}` });
      expect((meta.body as { data: { current_version: number } }).data.current_version).toBe(values.length);
      const read = await Promise.all(
        values.map((_, index) =>
          reader.handle({ method: 'GET', path: `data/${key}`, query: { version: String(index + 1) } }),
        ),
      );
      for (const response of read) expect(response.status, JSON.stringify(response.body)).toBe(200);
      const stored = read.map((response) => (response.body as { data: { data: { value: number } } }).data.data.value);
      // Every acknowledged write is a version, once, with its value.
      expect(stored.sort()).toEqual([...values].sort());
    }
  });
});
