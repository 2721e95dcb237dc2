// The server over a storage that becomes unavailable and comes back: requests answer 503 (not 500), the log has one
// line when the outage begins and one when it ends (not one per request), and `sys/health?ready=true` answers 503
// while the storage cannot be read. The same with two real processes over a real PostgreSQL: tests/durability.
import { describe, expect, it } from 'vitest';
import { MemoryStorage, StorageUnavailable, type Storage } from '../../../src/index.js';
import { StorageAvailability } from '../../../src/server/storage/storage-availability.js';
import { observedStorage } from '../../../src/server/metrics/metered-storage.js';
import { request, startServer } from '../harness.js';

/** A storage that can be switched off: every call then fails as an unreachable database does. */
function switchableStorage(): { storage: Storage; down: { value: boolean } } {
  const inner = new MemoryStorage();
  const down = { value: false };
  const storage = new Proxy(inner, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        down.value
          ? Promise.reject(new StorageUnavailable('db.internal:5432/vault', 'ECONNREFUSED'))
          : (value as (...a: unknown[]) => unknown).apply(target, args);
    },
  });
  return { storage, down };
}

describe('a storage outage', () => {
  it('answers 503, logs its start and end once, and the readiness probe follows the storage', async () => {
    const { storage, down } = switchableStorage();
    const { url, rootToken, logs, stop } = await startServer({ storage });
    const write = (n: number) =>
      request(url, { method: 'POST', path: `/v1/secret/data/k${n}`, token: rootToken, body: { data: { n } } });
    try {
      expect((await request(url, { path: '/v1/sys/health?ready=true' })).json.ready).toBe(true);
      expect((await write(0)).status).toBe(200);

      down.value = true;
      const during = await Promise.all([1, 2, 3, 4, 5].map(write));
      for (const answer of during) {
        expect(answer.status).toBe(503);
        expect(answer.json.errors).toEqual(['storage unavailable: the operation was not confirmed; try again']);
        expect(answer.text).not.toContain('db.internal');
      }
      const probe = await request(url, { path: '/v1/sys/health?ready' });
      expect(probe.status).toBe(503);
      expect(probe.json).toMatchObject({ ready: false, sealed: false });
      // Without the parameter, the liveness answer: the process is up.
      expect((await request(url, { path: '/v1/sys/health' })).status).toBe(200);

      down.value = false;
      expect((await write(6)).status).toBe(200);
      expect((await request(url, { path: '/v1/sys/health?ready=true' })).status).toBe(200);

      const began = logs.filter((entry) => entry.msg === 'storage outage began');
      const ended = logs.filter((entry) => entry.msg === 'storage outage ended');
      expect(began).toEqual([
        expect.objectContaining({ level: 'error', storage: 'db.internal:5432/vault', cause: 'ECONNREFUSED' }),
      ]);
      expect(ended).toEqual([expect.objectContaining({ level: 'warn', storage: 'db.internal:5432/vault' })]);
      expect(logs.filter((entry) => entry.msg === 'engine fault')).toEqual([]);
    } finally {
      await stop();
    }
  });

  it('refuses a readiness parameter it does not know with a 400', async () => {
    const { url, stop } = await startServer();
    try {
      const answer = await request(url, { path: '/v1/sys/health?ready=yes' });
      expect(answer.status).toBe(400);
      expect(answer.json.errors[0]).toMatch(/ready/);
    } finally {
      await stop();
    }
  });
});

describe('StorageAvailability', () => {
  it('counts only calls that began after the last change: one in flight across it changes nothing', async () => {
    const lines: Record<string, unknown>[] = [];
    const availability = new StorageAvailability((entry) => lines.push(entry));
    let answerSlowRead!: () => void;
    const inner = new MemoryStorage();
    const storage = observedStorage(
      {
        ...inner,
        get: (key: string) =>
          key === 'slow'
            ? new Promise<undefined>((resolve) => (answerSlowRead = () => resolve(undefined)))
            : inner.get(key),
        put: () => Promise.reject(new StorageUnavailable('db:5432/x', 'ECONNRESET')),
        list: (prefix: string) => inner.list(prefix),
        delete: (key: string) => inner.delete(key),
      },
      availability.watcher,
    );
    const slow = storage.get('slow');
    await expect(storage.put('k', new Uint8Array())).rejects.toBeInstanceOf(StorageUnavailable);
    await expect(storage.put('k', new Uint8Array())).rejects.toBeInstanceOf(StorageUnavailable);
    // Sent before the outage began: its answer says nothing about the storage now.
    answerSlowRead();
    await slow;
    expect(lines.map((line) => line.msg)).toEqual(['storage outage began']);
    expect(await availability.readable(storage)).toBe(true);
    expect(lines.map((line) => line.msg)).toEqual(['storage outage began', 'storage outage ended']);
    expect(lines[1]).toMatchObject({ storage: 'db:5432/x', after_ms: expect.any(Number) });
  });
});
