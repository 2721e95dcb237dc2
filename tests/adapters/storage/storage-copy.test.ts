// The copy side of every storage (StorageCopy): a snapshot holds every entry in key order as of one instant, whatever
// is written while it is read; a load fills an empty storage all at once and refuses, changing nothing, one that holds
// anything. Over MemoryStorage, SQLite and PostgreSQL.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MemoryStorage } from '../../../src/index.js';
import { StorageNotEmpty } from '../../../src/lib/errors.js';
import { PostgresCopy, PostgresStorage } from '../../../src/postgres.js';
import type { StorageCopy, StorageEntry } from '../../../src/ports/storage-copy.js';
import type { Storage } from '../../../src/ports/storage.js';
import { SqliteCopy, SqliteStorage } from '../../../src/sqlite.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../../support/postgres.js';

interface Made {
  storage: Storage;
  copy: StorageCopy;
}

const directory = mkdtempSync(join(tmpdir(), 'strongroom-copy-'));
let pg: PostgresServer | undefined;
let count = 0;
const closers: Array<() => Promise<void>> = [];

const DIALECTS: Array<[string, () => Promise<Made>]> = [
  [
    'memory',
    async () => {
      const storage = new MemoryStorage();
      return { storage, copy: storage };
    },
  ],
  [
    'sqlite',
    async () => {
      const path = join(directory, `${count++}.db`);
      const storage = new SqliteStorage({ path });
      closers.push(() => storage.close());
      await storage.list('');
      return { storage, copy: new SqliteCopy({ path }) };
    },
  ],
  ...(postgresAvailable()
    ? ([
        [
          'postgres',
          async () => {
            const table = `copy_${count++}`;
            const storage = new PostgresStorage({ connectionString: pg!.url, table });
            closers.push(() => storage.close());
            await storage.migrate();
            return { storage, copy: new PostgresCopy({ connectionString: pg!.url, table }) };
          },
        ],
      ] as Array<[string, () => Promise<Made>]>)
    : []),
];

beforeAll(async () => {
  if (postgresAvailable()) pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  for (const close of closers) await close();
  await pg?.stop();
  rmSync(directory, { recursive: true, force: true });
});

const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : Buffer.from(value).toString());
/** More than one page of the adapters' snapshot reads (500 rows). */
const MANY = 1200;
const keyOf = (index: number) => `f${index % 7}/k${String(index).padStart(5, '0')}`;

describe.each(DIALECTS)('%s', (_name, make) => {
  it('snapshots every entry in key order, as of the moment it began, while writes go on', async () => {
    const { storage, copy } = await make();
    for (let start = 0; start < MANY; start += 100)
      await Promise.all(Array.from({ length: 100 }, (_, i) => storage.put(keyOf(start + i), bytes(`v${start + i}`))));
    await storage.put('€/utf8', bytes('sorted by bytes'));
    const snapshot = copy.snapshot()[Symbol.asyncIterator]();
    const first = await snapshot.next();
    // Written after the snapshot began: none of it may show, before or after the read position.
    await storage.put(keyOf(MANY - 1), bytes('changed'));
    await storage.put('f0/a-new-key', bytes('new'));
    await storage.put('zz/after-everything', bytes('new'));
    await storage.delete(keyOf(3));
    const entries: StorageEntry[] = [first.value as StorageEntry];
    for (let next = await snapshot.next(); !next.done; next = await snapshot.next()) entries.push(next.value);

    expect(entries.length).toBe(MANY + 1);
    const keys = entries.map((entry) => entry.key);
    expect(keys).toEqual([...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    const byKey = new Map(entries.map((entry) => [entry.key, text(entry.value)]));
    expect(byKey.get(keyOf(MANY - 1))).toBe(`v${MANY - 1}`);
    expect(byKey.get(keyOf(3))).toBe('v3');
    expect(byKey.has('f0/a-new-key')).toBe(false);
    expect(byKey.get('€/utf8')).toBe('sorted by bytes');
    // Loaded whole, over several of the adapters' insert statements.
    const target = await make();
    await target.copy.loadIntoEmpty(entries);
    const loaded: StorageEntry[] = [];
    for await (const entry of target.copy.snapshot()) loaded.push(entry);
    expect(loaded).toEqual(entries);
    if (_name === 'sqlite') expect(readdirSync(directory).filter((name) => name.includes('snapshot'))).toEqual([]);
  });

  it('loads a snapshot into an empty storage, and refuses one that holds anything, changing nothing', async () => {
    const source = await make();
    await source.storage.put('a/1', bytes('one'));
    await source.storage.put('b', new Uint8Array(0));
    const entries: StorageEntry[] = [];
    for await (const entry of source.copy.snapshot()) entries.push(entry);

    const target = await make();
    await target.copy.loadIntoEmpty(entries);
    expect(text(await target.storage.get('a/1'))).toBe('one');
    expect(await target.storage.get('b')).toEqual(new Uint8Array(0));
    expect(await target.storage.list('')).toEqual(['a/', 'b']);

    const error = await target.copy.loadIntoEmpty([{ key: 'c', value: bytes('three') }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageNotEmpty);
    expect(String((error as Error).message)).toContain('2 entries');
    expect(await target.storage.get('c')).toBeUndefined();

    const empty = await make();
    await empty.copy.loadIntoEmpty([]);
    expect(await empty.storage.list('')).toEqual([]);
  });
});
