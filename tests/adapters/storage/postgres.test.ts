import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStorage } from '../../../src/postgres.js';
import { KvEngine, type Storage } from '../../../src/index.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../../support/postgres.js';
import { conformanceTests } from './conformance.js';

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
    sibling: async (storage) => new PostgresStorage({ connectionString: server.url, table: tableOf.get(storage)!, poolSize: 4 }),
    cleanup: async (storage) => (storage as PostgresStorage).close(),
  });
});

describe.skipIf(!available)('PostgresStorage against a real server', () => {
  it('creates its table on first use, and migrate() is idempotent from several clients at once', async () => {
    const clients = Array.from({ length: 4 }, () => new PostgresStorage({ connectionString: server.url, table: 'migrated', poolSize: 2 }));
    await Promise.all(clients.map((client) => client.migrate()));
    await Promise.all(clients.map((client, index) => client.put(`m/${index}`, new Uint8Array([index]))));
    expect(await clients[0]!.list('m/')).toEqual(['0', '1', '2', '3']);
    await Promise.all(clients.map((client) => client.close()));
  });

  it('answers a clear error while the server is down (KV: 500 through onInternalError) and recovers when it returns', async () => {
    const storage = new PostgresStorage({ connectionString: server.url.replace('postgres@', 'postgres:secret-pw@'), table: 'outage', connectTimeoutSeconds: 2 });
    const faults: unknown[] = [];
    const kv = new KvEngine({ storage, onInternalError: (error) => faults.push(error) });
    const write = (value: string) => kv.handle({ method: 'POST', path: 'data/app/db', body: { data: { value } } });
    expect((await write('before')).status).toBe(200);
    await server.halt();
    try {
      const refused = storage.get('anything');
      await expect(refused).rejects.toThrow(`PostgreSQL at 127.0.0.1:${server.port}/postgres is unreachable`);
      await expect(refused).rejects.not.toThrow(/secret-pw/);
      const response = await write('during');
      expect(response.status).toBe(500);
      expect(JSON.stringify(response.body)).not.toMatch(/secret-pw|127\.0\.0\.1/);
      const fault = faults.at(-1) as Error;
      expect(`${fault} ${(fault.cause as Error | undefined)?.message}`).toMatch(/unreachable/);
    } finally {
      await server.start();
    }
    expect((await write('after')).status).toBe(200);
    const read = await kv.handle({ method: 'GET', path: 'data/app/db' });
    expect(read.body).toMatchObject({ data: { data: { value: 'after' }, metadata: { version: 2 } } });
    await storage.close();
  }, 60_000);

  it('rejects bad options with clear errors', () => {
    expect(() => new PostgresStorage({ connectionString: '' })).toThrow(/connectionString/);
    expect(() => new PostgresStorage({ connectionString: 'postgres://x', table: 'a"; drop' })).toThrow(/table name/);
    expect(() => new PostgresStorage({ connectionString: 'postgres://x', poolSize: 0 })).toThrow(/poolSize/);
  });
});
