// The storage the engine suites run over: one factory, so the same tests run over every kind of storage, as Kysely
// runs its tests over every dialect. The run selects the kind with STRONGROOM_TEST_STORAGE (vitest.config.ts sets it
// per project). Importing it registers, on the test file that imports it, the afterAll that closes and removes every
// storage the file made (vitest runs each file in a process of its own, so this module is evaluated once per file).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, inject } from 'vitest';
import { EncryptedStorage, MemoryStorage, type Storage } from '../../src/index.js';
import { PostgresStorage } from '../../src/postgres.js';
import { SqliteStorage } from '../../src/sqlite.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The throwaway PostgreSQL the engines:postgres project shares (tests/support/test-storage-cluster.ts). */
    testPostgresUrl: string;
  }
}

const KINDS = ['memory', 'encrypted', 'sqlite', 'postgres'] as const;
type Kind = (typeof KINDS)[number];

function selectedKind(): Kind {
  const kind = process.env.STRONGROOM_TEST_STORAGE || 'memory';
  if ((KINDS as readonly string[]).includes(kind)) return kind as Kind;
  throw new Error(`STRONGROOM_TEST_STORAGE=${kind} names no storage kind; use one of: ${KINDS.join(', ')}`);
}

const kind = selectedKind();

/**
 * Every kind has the port's atomic members, so tests may call them as MemoryStorage's callers did; `watch` only
 * PostgreSQL has.
 */
export type TestStorage = Storage &
  Required<Pick<Storage, 'compareAndPut' | 'compareAndDelete' | 'commit' | 'listPage'>>;

/** What removes a storage and everything it holds. */
type Cleanup = () => Promise<void>;

/** What the file made: removed when it ends. */
const made: Cleanup[] = [];
let count = 0;
let directory: string | undefined;
/** The tables this file made, dropped at its end; postgres.js keeps one admin connection for that only then. */
const tables: string[] = [];

/**
 * A fresh, empty storage of the run's kind, closed and removed when the test file ends (not when the test that asked
 * for it ends: a server a file starts lazily in its first test serves the tests after it). SQLite and PostgreSQL writes
 * are not flushed to disk at every commit: these suites test the engines, not durability (tests/durability does that).
 */
export function testStorage(): TestStorage {
  const { storage, cleanup } = make();
  made.push(cleanup);
  return storage;
}

function make(): { storage: TestStorage; cleanup: Cleanup } {
  const none = async () => undefined;
  switch (kind) {
    case 'memory':
      return { storage: new MemoryStorage(), cleanup: none };
    case 'encrypted':
      // EncryptedStorage has each atomic member its inner storage has, and MemoryStorage has them all.
      return {
        storage: new EncryptedStorage({ storage: new MemoryStorage(), key: randomBytes(32) }) as TestStorage,
        cleanup: none,
      };
    case 'sqlite': {
      directory ??= mkdtempSync(join(tmpdir(), 'strongroom-test-storage-'));
      const storage = new SqliteStorage({ path: join(directory, `${count++}.db`), synchronous: 'normal' });
      return { storage, cleanup: () => storage.close() };
    }
    case 'postgres': {
      // Random, not the process id: CI spawns more processes than pid_max (32 768 here), so an id comes back, and a
      // table a dead process left behind would hand its rows to a new test.
      const table = `test_storage_${randomBytes(8).toString('hex')}`;
      tables.push(table);
      // Two connections: enough for the engines' concurrent calls to overlap, few enough for hundreds of storages.
      const storage = new PostgresStorage({ connectionString: inject('testPostgresUrl'), table, poolSize: 2 });
      return { storage, cleanup: () => storage.close() };
    }
  }
}

afterAll(async () => {
  await Promise.all(made.splice(0).map((cleanup) => cleanup()));
  if (directory) rmSync(directory, { recursive: true, force: true });
  if (tables.length > 0) {
    const admin = postgres(inject('testPostgresUrl'), { max: 1, onnotice: () => undefined });
    try {
      await admin.unsafe(
        `DROP TABLE IF EXISTS ${tables
          .splice(0)
          .map((table) => `"${table}"`)
          .join(', ')}`,
      );
    } finally {
      await admin.end();
    }
  }
});
