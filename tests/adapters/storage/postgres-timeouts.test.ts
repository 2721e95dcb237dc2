// PostgresStorage bounds every operation: a statement PostgreSQL does not finish within statementTimeoutSeconds, a
// connection not made within connectTimeoutSeconds, or a connection that went silent, each reject with
// StorageUnavailable within both timeouts (plus the stated margin of 1 s), and the storage serves again afterwards.
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { StorageUnavailable } from '../../../src/index.js';
import { PostgresStorage } from '../../../src/postgres.js';
import { postgresAvailable } from '../../support/postgres.js';
import { usePostgresBehindProxy } from '../../support/tcp-proxy.js';

const encode = (text: string) => new TextEncoder().encode(text);
const MARGIN_MS = 1000;

/** How long `promise` took to reject, and with what. */
async function rejection(promise: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = Date.now();
  try {
    await promise;
  } catch (error) {
    return { ms: Date.now() - started, error };
  }
  throw new Error('expected a rejection');
}

describe('PostgresStorage timeout options', () => {
  it.each([
    ['connectTimeoutSeconds', 0],
    ['connectTimeoutSeconds', -1],
    ['statementTimeoutSeconds', Number.NaN],
    ['statementTimeoutSeconds', '5'],
    ['statementTimeoutSeconds', 3601],
  ])('refuses %s %s with a TypeError naming it', (name, value) => {
    expect(() => new PostgresStorage({ connectionString: 'postgres://u@localhost/db', [name]: value })).toThrow(
      new TypeError(`${name} must be between 0.1 and 3600 (seconds)`),
    );
  });
});

describe.skipIf(!postgresAvailable())('PostgresStorage under a stalled server', { timeout: 60_000 }, () => {
  const pg = usePostgresBehindProxy();

  it('a statement PostgreSQL does not finish in time rejects with StorageUnavailable (statement_timeout)', async () => {
    const storage = new PostgresStorage({
      connectionString: pg.server.url,
      table: 'stalled',
      statementTimeoutSeconds: 0.5,
    });
    await storage.put('held', encode('before'));
    const rival = postgres(pg.server.url, { max: 1, onnotice: () => undefined });
    try {
      await rival.begin(async (tx) => {
        await tx`SELECT key FROM stalled WHERE key = 'held' FOR UPDATE`;
        const { ms, error } = await rejection(storage.put('held', encode('blocked')));
        expect(error).toBeInstanceOf(StorageUnavailable);
        expect((error as StorageUnavailable).reason).toBe('57014');
        expect(ms).toBeLessThanOrEqual(5000 + 500 + MARGIN_MS);
      });
      await storage.put('held', encode('after'));
      expect(new TextDecoder().decode(await storage.get('held'))).toBe('after');
    } finally {
      await rival.end();
      await storage.close();
    }
  });

  it('a connection that goes silent, or one never made, rejects within both timeouts; then it serves again', async () => {
    const storage = new PostgresStorage({
      connectionString: `postgres://postgres@127.0.0.1:${pg.proxy.port}/postgres`,
      table: 'silent',
      poolSize: 1,
      connectTimeoutSeconds: 1,
      statementTimeoutSeconds: 1,
    });
    try {
      await storage.put('k', encode('v'));
      pg.proxy.freeze();
      const frozen = await rejection(storage.get('k'));
      expect(frozen.error).toBeInstanceOf(StorageUnavailable);
      expect((frozen.error as StorageUnavailable).reason).toBe('no answer within 2 s');
      expect(frozen.ms).toBeLessThanOrEqual(2000 + MARGIN_MS);

      pg.proxy.partition();
      const partitioned = await rejection(storage.get('k'));
      expect(partitioned.error).toBeInstanceOf(StorageUnavailable);
      expect(partitioned.ms).toBeLessThanOrEqual(2000 + MARGIN_MS);

      pg.proxy.heal();
      // The pool's one connection may still be the frozen one, held by the statement left running; it ends soon.
      const started = Date.now();
      for (;;) {
        try {
          expect(new TextDecoder().decode(await storage.get('k'))).toBe('v');
          break;
        } catch (error) {
          expect(error).toBeInstanceOf(StorageUnavailable);
          expect(Date.now() - started).toBeLessThan(15_000);
        }
      }
    } finally {
      await storage.close();
    }
  });

  it('keeps no broken connection past a shutdown that caught queries running: once back, every operation succeeds', async () => {
    const storage = new PostgresStorage({ connectionString: pg.server.url, table: 'restarted' });
    await storage.put('k', encode('v'));
    let running = true;
    // Writes, not reads: concurrent reads share one statement, so they hold one connection, not several.
    const writers = Array.from({ length: 4 }, async (_, writer) => {
      while (running)
        await storage.put(`w${writer}`, encode('v')).catch(() => new Promise((resolve) => setTimeout(resolve, 20)));
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await pg.server.halt('fast');
      await pg.server.start();
      running = false;
      await Promise.all(writers);
      // postgres.js 3.4 hands a session's last error to the next query on its connection, after the server is back.
      const writes = await Promise.allSettled(
        Array.from({ length: 40 }, (_, n) => storage.put(`after/${n}`, encode('v'))),
      );
      expect(writes.filter((write) => write.status === 'rejected')).toEqual([]);
    } finally {
      running = false;
      await storage.close();
    }
  });
});
