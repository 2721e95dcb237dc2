import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStorage } from '../../src/postgres.js';
import { KvEngine, type KvChangeEvent } from '../../src/kv/index.js';
import { buildWorker, postgresBackend, postgresHere, Worker } from '../durability/cluster.js';

/** Waits until `done()` holds, checking every 20 ms, for at most `ms`. */
async function until(done: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for events');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!postgresHere)('change events across processes over PostgreSQL', { timeout: 120_000 }, () => {
  let backend: Awaited<ReturnType<typeof postgresBackend>>;
  let bundle: Awaited<ReturnType<typeof buildWorker>>;
  let writer: Worker;
  let storage: PostgresStorage;
  let kv: KvEngine;
  const events: KvChangeEvent[] = [];

  beforeAll(async () => {
    [backend, bundle] = await Promise.all([postgresBackend(), buildWorker()]);
    writer = await Worker.start(bundle.script, backend.env());
    // Something exists before the watch begins: its past is not replayed.
    expect((await writer.kv({ method: 'POST', path: 'data/old', body: { data: { v: 0 } } })).status).toBe(200);
    storage = new PostgresStorage({ connectionString: backend.server.url });
    kv = new KvEngine({
      storage,
      onEventError: (error) => events.push({ path: `error: ${String(error)}` } as KvChangeEvent),
    });
    kv.subscribe('', (event) => events.push(event));
    await kv.watching();
  });

  afterAll(async () => {
    await kv?.stopWatching();
    await storage?.close();
    writer?.child.kill('SIGKILL');
    await writer?.exited;
    await backend?.stop();
    bundle?.remove();
  });

  /** Makes changes in the other process; answers the (path, operation) pairs it committed, in order. */
  async function changeElsewhere(round: number, transientKey = true): Promise<string[]> {
    const made: string[] = [];
    const call = async (request: Parameters<Worker['kv']>[0], path: string, operation: string) => {
      const response = await writer.kv(request);
      expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
      made.push(`${path} ${operation}`);
    };
    for (let i = 0; i < 5; i++) {
      for (const key of ['a', 'b/c'])
        await call({ method: 'POST', path: `data/${key}`, body: { data: { round, i } } }, key, 'write');
    }
    await call({ method: 'DELETE', path: 'data/a' }, 'a', 'delete');
    await call({ method: 'POST', path: 'undelete/a', body: { versions: [round * 5 + 5] } }, 'a', 'undelete');
    await call(
      { method: 'POST', path: 'metadata/b/c', body: { custom_metadata: { round: String(round) } } },
      'b/c',
      'metadata-write',
    );
    if (transientKey) {
      await call({ method: 'POST', path: `data/gone-${round}`, body: { data: { x: 1 } } }, `gone-${round}`, 'write');
      await call({ method: 'DELETE', path: `metadata/gone-${round}` }, `gone-${round}`, 'metadata-delete');
    }
    return made;
  }

  /**
   * Waits for the events of `made` from `from` on and answers the ones to expect. A key created and removed before this
   * process reads it leaves nothing to find (docs/kv.md): a slow reader may see both events of the transient key or
   * neither, never one alone.
   */
  async function delivered(made: string[], from: number): Promise<string[]> {
    const transient = made.filter((entry) => entry.startsWith('gone-'));
    await until(() => events.length - from >= made.length - transient.length);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const seen = events.slice(from).filter((event) => event.path.startsWith('gone-'));
    expect([0, transient.length]).toContain(seen.length);
    return seen.length > 0 ? made : made.filter((entry) => !transient.includes(entry));
  }

  function expectDelivered(made: string[], from: number): void {
    const delivered = events.slice(from);
    for (const path of new Set(made.map((entry) => entry.split(' ')[0]!))) {
      const mine = delivered.filter((event) => event.path === path);
      expect(mine.map((event) => `${event.path} ${event.operation}`)).toEqual(
        made.filter((entry) => entry.startsWith(`${path} `)),
      );
      const revisions = mine.map((event) => event.revision);
      expect(revisions).toEqual([...revisions].sort((x, y) => x - y));
      expect(new Set(revisions).size).toBe(revisions.length);
    }
  }

  it('a subscriber here sees every change another process commits, in revision order per key, and nothing older', async () => {
    const made = await delivered(await changeElsewhere(0), 0);
    expect(events.some((event) => event.path === 'old')).toBe(false);
    expect(events).toHaveLength(made.length);
    expectDelivered(made, 0);
  });

  it('misses nothing across a dropped connection: changes no notification announced are found by the catch-up', async () => {
    const from = events.length;
    const admin = postgres(backend.server.url, { max: 1, onnotice: () => {} });
    try {
      // Silence the notifications so that only the catch-up after the reconnect can find these changes.
      await admin.unsafe('ALTER TABLE "strongroom" DISABLE TRIGGER "strongroom_notify"');
      // A key created and removed entirely while unannounced leaves nothing to find (see docs/kv.md): not part of this round.
      const made = await changeElsewhere(1, false);
      await admin.unsafe('ALTER TABLE "strongroom" ENABLE TRIGGER "strongroom_notify"');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(events.length).toBe(from);
      const killed =
        await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query ILIKE 'listen %' AND pid <> pg_backend_pid()`;
      expect(killed.length).toBe(1);
      await until(() => events.length - from >= made.length);
      // And with the session back, notifications flow again.
      const more = await delivered(await changeElsewhere(2), from + made.length);
      expect(events.slice(from)).toHaveLength(made.length + more.length);
      expectDelivered([...made, ...more], from);
    } finally {
      await admin.end();
    }
  });
});
