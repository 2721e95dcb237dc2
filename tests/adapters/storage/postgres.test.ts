import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStorage } from '../../../src/postgres.js';
import { KvEngine, StorageUnavailable, type Storage } from '../../../src/index.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../../support/postgres.js';
import postgres from 'postgres';
import { conformanceTests } from './conformance.js';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (value: Uint8Array | undefined) => (value === undefined ? undefined : new TextDecoder().decode(value));

/** Waits until some session waits on a lock (our commit, blocked behind the rival's uncommitted insert). */
async function waitForLockWait(url: string): Promise<void> {
  const observer = postgres(url, { max: 1 });
  try {
    for (let tries = 0; tries < 200; tries++) {
      const rows = await observer`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock'`;
      if ((rows[0]?.waiting as number) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the commit never waited on the rival transaction');
  } finally {
    await observer.end();
  }
}

/**
 * Runs `ours` while a rival transaction holds the change `rivalChange` made, uncommitted, until `ours` waits on it;
 * then the rival commits and `ours` is answered.
 */
async function behindRival(
  url: string,
  rivalChange: (tx: postgres.TransactionSql) => Promise<unknown>,
  ours: () => Promise<boolean>,
): Promise<boolean> {
  const rival = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    let pending: Promise<boolean> | undefined;
    await rival.begin(async (tx) => {
      await rivalChange(tx);
      pending = ours();
      await waitForLockWait(url);
    });
    return await pending!;
  } finally {
    await rival.end();
  }
}

const available = postgresAvailable();
let server: PostgresServer;
beforeAll(async () => {
  if (available) server = await startPostgres();
}, 60_000);
afterAll(async () => server?.stop());

let tables = 0;
const tableOf = new Map<Storage, string>();

describe.skipIf(!available)('PostgresStorage conformance (a second pool on the same table as sibling)', () => {
  conformanceTests({
    create: async () => {
      const table = `conformance_${tables++}`;
      const storage = new PostgresStorage({ connectionString: server.url, table, poolSize: 4 });
      tableOf.set(storage, table);
      return storage;
    },
    sibling: async (storage) =>
      new PostgresStorage({ connectionString: server.url, table: tableOf.get(storage)!, poolSize: 4 }),
    cleanup: async (storage) => storage.close(),
  });
});

describe.skipIf(!available)('PostgresStorage against a real server', () => {
  it('creates its table on first use, and migrate() is idempotent from several clients at once', async () => {
    const clients = Array.from(
      { length: 4 },
      () => new PostgresStorage({ connectionString: server.url, table: 'migrated', poolSize: 2 }),
    );
    await Promise.all(clients.map((client) => client.migrate()));
    await Promise.all(clients.map((client, index) => client.put(`m/${index}`, new Uint8Array([index]))));
    expect(await clients[0]!.list('m/')).toEqual(['0', '1', '2', '3']);
    await Promise.all(clients.map((client) => client.close()));
  });

  it('answers a clear error while the server is down (KV: 503 through onInternalError) and recovers when it returns', async () => {
    const storage = new PostgresStorage({
      connectionString: server.url.replace('postgres@', 'postgres:secret-pw@'),
      table: 'outage',
      connectTimeoutSeconds: 2,
    });
    const faults: unknown[] = [];
    const kv = new KvEngine({ storage, onInternalError: (error) => faults.push(error) });
    const write = (value: string) => kv.handle({ method: 'POST', path: 'data/app/db', body: { data: { value } } });
    expect((await write('before')).status).toBe(200);
    await server.halt();
    try {
      const refused = storage.get('anything');
      await expect(refused).rejects.toThrow(`storage at 127.0.0.1:${server.port}/postgres is unavailable (`);
      await expect(refused).rejects.toBeInstanceOf(StorageUnavailable);
      await expect(refused).rejects.not.toThrow(/secret-pw/);
      const response = await write('during');
      expect(response.status).toBe(503);
      expect(JSON.stringify(response.body)).not.toMatch(/secret-pw|127\.0\.0\.1/);
      const fault = faults.at(-1) as Error;
      expect(`${fault}`).toMatch(/unavailable \(/);
    } finally {
      await server.start();
    }
    expect((await write('after')).status).toBe(200);
    const read = await kv.handle({ method: 'GET', path: 'data/app/db' });
    expect(read.body).toMatchObject({ data: { data: { value: 'after' }, metadata: { version: 2 } } });
    await storage.close();
  }, 60_000);

  it('a commit that finds a key absent, then loses the insert to a transaction that committed it meanwhile, applies nothing', async () => {
    const storage = new PostgresStorage({ connectionString: server.url, table: 'raced', poolSize: 2 });
    await storage.put('raced/other', encode('before'));
    // Our commit finds the key absent, and its insert then waits for the rival's transaction.
    const committed = behindRival(
      server.url,
      (tx) => tx`INSERT INTO raced (key, value) VALUES ('raced/claim', ${Buffer.from('rival')})`,
      () =>
        storage.commit([
          { type: 'put', key: 'raced/claim', value: encode('ours'), expected: null },
          { type: 'put', key: 'raced/other', value: encode('after'), expected: encode('before') },
        ]),
    );
    expect(await committed).toBe(false);
    expect(decode(await storage.get('raced/claim'))).toBe('rival');
    expect(decode(await storage.get('raced/other'))).toBe('before');
    await storage.close();
  });

  it('a commit whose later condition fails after an earlier one applied undoes the earlier change', async () => {
    const storage = new PostgresStorage({ connectionString: server.url, table: 'undone', poolSize: 2 });
    await storage.put('u/a', encode('1'));
    await storage.put('u/b', encode('taken'));
    // Conditions run in key order: u/a's holds and applies, then u/b's fails.
    const later = [
      { type: 'put', key: 'u/b', value: encode('mine'), expected: null },
      { type: 'delete', key: 'u/b', expected: encode('other') },
      { type: 'put', key: 'u/b', value: encode('mine'), expected: encode('other') },
    ] as const;
    for (const failing of later) {
      expect(
        await storage.commit([
          { type: 'put', key: 'u/a', value: encode('2'), expected: encode('1') },
          failing,
          { type: 'put', key: 'u/c', value: encode('new') },
        ]),
      ).toBe(false);
      expect([decode(await storage.get('u/a')), decode(await storage.get('u/b')), await storage.get('u/c')]).toEqual([
        '1',
        'taken',
        undefined,
      ]);
    }
    expect(
      await storage.commit([
        { type: 'put', key: 'u/a', value: encode('2'), expected: encode('1') },
        { type: 'delete', key: 'u/b', expected: encode('taken') },
        { type: 'put', key: 'u/c', value: encode('new') },
      ]),
    ).toBe(true);
    expect([decode(await storage.get('u/a')), await storage.get('u/b'), decode(await storage.get('u/c'))]).toEqual([
      '2',
      undefined,
      'new',
    ]);
    await storage.close();
  });

  it('a conditional change waiting behind a rival that changes the row checks its condition on the committed row', async () => {
    const storage = new PostgresStorage({ connectionString: server.url, table: 'rechecked', poolSize: 2 });
    await storage.put('r/head', encode('v1'));
    const committed = behindRival(
      server.url,
      (tx) => tx`UPDATE rechecked SET value = ${Buffer.from('v2')} WHERE key = 'r/head'`,
      () =>
        storage.commit([
          { type: 'put', key: 'r/blob', value: encode('data'), expected: null },
          { type: 'put', key: 'r/head', value: encode('ours'), expected: encode('v1') },
        ]),
    );
    expect(await committed).toBe(false);
    expect([await storage.get('r/blob'), decode(await storage.get('r/head'))]).toEqual([undefined, 'v2']);
    await storage.close();
  });

  it('a commit larger than one statement covers runs as a transaction, as atomic', async () => {
    const storage = new PostgresStorage({ connectionString: server.url, table: 'large_commit' });
    await storage.put('l/guard', encode('v1'));
    const puts = Array.from({ length: 20 }, (_, index) => ({
      type: 'put' as const,
      key: `l/${String(index).padStart(2, '0')}`,
      value: encode(String(index)),
    }));
    expect(
      await storage.commit([...puts, { type: 'put', key: 'l/guard', value: encode('v2'), expected: encode('stale') }]),
    ).toBe(false);
    expect(await storage.list('l/')).toEqual(['guard']);
    expect(
      await storage.commit([...puts, { type: 'put', key: 'l/guard', value: encode('v2'), expected: encode('v1') }]),
    ).toBe(true);
    expect((await storage.list('l/')).length).toBe(21);
    expect(decode(await storage.get('l/guard'))).toBe('v2');
    await storage.close();
  });

  it('works with prepared statements (the default) and without (for poolers in transaction mode)', async () => {
    for (const prepare of [true, false]) {
      const storage = new PostgresStorage({ connectionString: server.url, table: `prepared_${prepare}`, prepare });
      await storage.put('p/a', encode('1'));
      expect(await storage.commit([{ type: 'put', key: 'p/a', value: encode('2'), expected: encode('1') }])).toBe(true);
      expect(decode(await storage.get('p/a'))).toBe('2');
      expect(await storage.list('p/')).toEqual(['a']);
      await storage.close();
    }
  });

  it('reads issued together are answered by one statement, each caller with its own copy', async () => {
    const storage = new PostgresStorage({ connectionString: server.url, table: 'batched', poolSize: 1 });
    await storage.put('b/1', encode('one'));
    await storage.put('b/2', encode('two'));
    const [first, again, second, missing] = await Promise.all(
      ['b/1', 'b/1', 'b/2', 'b/none'].map((key) => storage.get(key)),
    );
    expect([first, again, second, missing].map(decode)).toEqual(['one', 'one', 'two', undefined]);
    first![0] = 0;
    expect(decode(again)).toBe('one');
    expect(decode(await storage.get('b/1'))).toBe('one');
    // More keys than one statement lists as parameters go as one array.
    const keys = Array.from({ length: 12 }, (_, index) => `b/${index + 1}`);
    expect((await Promise.all(keys.map((key) => storage.get(key)))).map(decode)).toEqual([
      'one',
      'two',
      ...Array(10).fill(undefined),
    ]);
    await storage.close();
  });

  it('rejects bad options with clear errors', () => {
    expect(() => new PostgresStorage({ connectionString: '' })).toThrow(/connectionString/);
    // What the driver cannot parse is refused at once, without repeating the text, which holds the password.
    for (const malformed of [
      'postgres://app:pa#ss/hunter2@127.0.0.1:5432/db',
      'postgres://app:hunter2@127.0.0.1:99999/db',
      'hunter2',
      'mysql://app:hunter2@127.0.0.1/db',
    ]) {
      expect(() => new PostgresStorage({ connectionString: malformed })).toThrow(
        new TypeError(
          "PostgresStorage's connectionString is not a postgres:// or postgresql:// URL that the driver can read (characters such as # / ? @ % in the user name or password must be percent-encoded)",
        ),
      );
    }
    for (const accepted of [
      'postgres://x',
      'postgresql://u:p%23w@h:5432/db?sslmode=require',
      'postgres://u:p@h1:5432,h2:5433/db',
      'postgres:///db',
      'postgres://[::1]/db',
    ]) {
      expect(() => new PostgresStorage({ connectionString: accepted })).not.toThrow();
    }
    expect(() => new PostgresStorage({ connectionString: 'postgres://x', table: 'a"; drop' })).toThrow(/table name/);
    expect(() => new PostgresStorage({ connectionString: 'postgres://x', poolSize: 0 })).toThrow(/poolSize/);
  });
});
