import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStorage } from '../../../src/sqlite.js';
import { KvEngine, type Storage } from '../../../src/index.js';
import { conformanceTests } from './conformance.js';

const directory = mkdtempSync(join(tmpdir(), 'strongroom-sqlite-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;
const paths = new Map<Storage, string>();

// The callbacks take the adapter's own type, as docs/storage.md writes them: no cast back from Storage.
describe('SqliteStorage conformance (a second connection on the same file as sibling)', () => {
  conformanceTests({
    create: async () => {
      const path = join(directory, `conformance-${files++}.db`);
      const storage = new SqliteStorage({ path });
      paths.set(storage, path);
      return storage;
    },
    sibling: async (storage: SqliteStorage) => new SqliteStorage({ path: paths.get(storage)!, synchronous: 'normal' }),
    cleanup: async (storage: SqliteStorage) => storage.close(),
  });
});

describe('SqliteStorage on a real file', () => {
  const open = async () => {
    const { default: Database } = (await import('libsql')) as unknown as {
      default: new (path: string) => {
        exec(sql: string): void;
        pragma(sql: string, o?: object): unknown;
        close(): void;
      };
    };
    return Database;
  };

  it('persists across reopening, in WAL mode with the chosen synchronous level', async () => {
    const path = join(directory, 'reopen.db');
    const first = new SqliteStorage({ path, synchronous: 'normal' });
    await first.put('kept/key', new Uint8Array([0, 1, 255]));
    await first.close();
    await expect(first.get('kept/key')).rejects.toThrow(/closed/);
    const second = new SqliteStorage({ path });
    expect(await second.get('kept/key')).toEqual(new Uint8Array([0, 1, 255]));
    await second.close();
    const Database = await open();
    const raw = new Database(path);
    expect(raw.pragma('journal_mode')).toMatchObject([{ journal_mode: 'wal' }]);
    raw.close();
  });

  it('waits for another connection holding the write lock, and fails clearly once its busy budget is spent', async () => {
    const path = join(directory, 'busy.db');
    const storage = new SqliteStorage({ path, busyTimeoutMs: 300 });
    await storage.put('warm', new Uint8Array([1]));
    const Database = await open();
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    const waiting = storage.put('during', new Uint8Array([2]));
    await new Promise((resolve) => setTimeout(resolve, 100));
    holder.exec('COMMIT');
    await waiting;
    expect(await storage.get('during')).toEqual(new Uint8Array([2]));

    holder.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    await expect(storage.commit([{ type: 'put', key: 'late', value: new Uint8Array([3]) }])).rejects.toMatchObject({
      code: expect.stringMatching(/^SQLITE_BUSY/),
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    holder.exec('ROLLBACK');
    holder.close();
    expect(await storage.get('late')).toBeUndefined();
    expect(await storage.commit([{ type: 'put', key: 'late', value: new Uint8Array([3]) }])).toBe(true);
    await storage.close();
  });

  it('creates the missing folders of its path, readable by the owner only, as the documented ./data/strongroom.db needs', async () => {
    const folder = join(directory, 'fresh', 'data');
    const path = join(folder, 'strongroom.db');
    const storage = new SqliteStorage({ path });
    const kv = new KvEngine({ storage });
    const written = await kv.handle({ method: 'POST', path: 'data/app/db', body: { data: { password: 's3cret' } } });
    expect(written.status).toBe(200);
    await storage.close();
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const reopened = new SqliteStorage({ path });
    expect((await new KvEngine({ storage: reopened }).read('app/db')).data).toEqual({ password: 's3cret' });
    await reopened.close();
  });

  it('creates its file readable by the owner only, and its WAL the same, whatever the umask lets others read', async () => {
    const path = join(directory, 'private.db');
    const storage = new SqliteStorage({ path });
    await new KvEngine({ storage }).write('app/db', { password: 's3cret' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(`${path}-wal`).mode & 0o777).toBe(0o600);
    await storage.close();
    // A file the operator created keeps the mode the operator gave it.
    const shared = join(directory, 'shared.db');
    writeFileSync(shared, '', { mode: 0o640 });
    const existing = new SqliteStorage({ path: shared });
    await existing.put('k', new Uint8Array([1]));
    expect(statSync(shared).mode & 0o777).toBe(0o640);
    await existing.close();
  });

  it('rejects bad options and bad pages with clear errors', async () => {
    expect(() => new SqliteStorage({ path: '' })).toThrow(/file path/);
    expect(() => new SqliteStorage({ path: 'x.db', table: 'a; drop' })).toThrow(/table name/);
    expect(() => new SqliteStorage({ path: 'x.db', synchronous: 'off' as 'full' })).toThrow(/synchronous/);
    const storage = new SqliteStorage({ path: join(directory, 'pages.db') });
    await expect(storage.listPage('', { limit: 0 })).rejects.toThrow(/positive integer/);
    await expect(
      storage.commit([
        { type: 'delete', key: 'a' },
        { type: 'put', key: 'a', value: new Uint8Array() },
      ]),
    ).rejects.toThrow(/twice/);
    await storage.close();
  });
});
