// The deliverer's durable state on its own: the lease two processes contend for (one holds it; it lapses when its
// holder stops renewing, as after a SIGKILL), and the cursor that finds each key's changes from its recorded history,
// a removal and a key's new life included.
import { describe, expect, it } from 'vitest';
import { JsonStore } from '../../../src/core/store/stored-json.js';
import { KvEngine, ManualClock } from '../../../src/index.js';
import { ChangeCursor } from '../../../src/server/webhooks/change-cursor.js';
import { DelivererLease } from '../../../src/server/webhooks/deliverer-lease.js';
import { testStorage } from '../../support/test-storage.js';

describe('DelivererLease', () => {
  it('is held by one process at a time, and taken over once its holder stops renewing it', async () => {
    const clock = new ManualClock();
    const store = new JsonStore(testStorage());
    const now = () => clock.now().getTime();
    const [a, b] = [new DelivererLease(store, now, 10_000), new DelivererLease(store, now, 10_000)];
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    clock.advance(9);
    expect(await a.acquire()).toBe(true);
    clock.advance(9);
    expect(await b.acquire()).toBe(false);
    // `a` dies here: it renews no more, and its lease lapses 10 s after its last renewal.
    clock.advance(1.001);
    expect(a.held).toBe(false);
    expect(await b.acquire()).toBe(true);
    expect(await a.acquire()).toBe(false);
    await a.release();
    expect(await b.acquire()).toBe(true);
    await b.release();
    expect(await a.acquire()).toBe(true);
  });
});

describe('ChangeCursor', () => {
  it('finds each change once, a removal, and a key created again with fresh ids', async () => {
    const clock = new ManualClock();
    const storage = testStorage();
    const kv = new KvEngine({ storage, storagePrefix: 'secret/', clock });
    const cursor = new ChangeCursor(new JsonStore(storage), () => clock.now().getTime());
    const pending = async (until = clock.now().getTime()) => {
      const found = await cursor.pending('secret/', kv, 'app/db', until);
      await found.advance();
      return found.changes.map(({ operation, version, revision, id }) => ({ operation, version, revision, id }));
    };
    expect(await pending()).toEqual([]);
    await kv.write('app/db', { v: '1' });
    const firstWritten = clock.now().getTime();
    clock.advance(1);
    await kv.write('app/db', { v: '2' });
    // Changes made after the time given wait for a later call.
    const early = await cursor.pending('secret/', kv, 'app/db', firstWritten);
    expect(early.changes.map(({ version }) => version)).toEqual([1]);
    expect(early.later).toBe(true);
    const first = [
      ...early.changes.map(({ operation, version, revision, id }) => ({ operation, version, revision, id })),
    ];
    await early.advance();
    first.push(...(await pending()));
    expect(first.map(({ operation, version }) => [operation, version])).toEqual([
      ['write', 1],
      ['write', 2],
    ]);
    expect(await pending()).toEqual([]);
    clock.advance(1);
    await kv.deleteMetadata('app/db');
    const removed = await pending();
    expect(removed.map(({ operation, version }) => [operation, version])).toEqual([['metadata-delete', 2]]);
    expect(await pending()).toEqual([]);
    clock.advance(1);
    await kv.write('app/db', { v: 'again' });
    const again = await pending();
    expect(again.map(({ operation, version }) => [operation, version])).toEqual([['write', 1]]);
    // Removed and created again between two reads: the former life's removal, then the new life.
    clock.advance(1);
    await kv.deleteMetadata('app/db');
    clock.advance(1);
    await kv.write('app/db', { v: 'third life' });
    expect((await pending()).map(({ operation, version }) => [operation, version])).toEqual([
      ['metadata-delete', 1],
      ['write', 1],
    ]);
    expect(await pending()).toEqual([]);
    expect(again[0]!.id).not.toBe(first[0]!.id);
    const known: string[] = [];
    for await (const path of cursor.known('secret/')) known.push(path);
    expect(known).toEqual(['app/db']);
  });
});
