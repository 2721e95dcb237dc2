import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EncryptedStorage } from '../../src/index.js';
import { SqliteStorage } from '../../src/sqlite.js';

const root = resolve(import.meta.dirname, '../..');
const ENTRIES = 300;
let directory: string;
let worker: string;

beforeAll(async () => {
  // Inside the repository, so that the worker's database driver resolves from node_modules.
  directory = mkdtempSync(join(root, '.tmp-rewrap-'));
  worker = join(directory, 'worker.mjs');
  await build({
    entryPoints: [join(root, 'tests/encryption/rewrap-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: worker,
    packages: 'external',
    logLevel: 'silent',
  });
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const value = (index: number) => new TextEncoder().encode(`secret-${index}`);

describe('a rewrap process killed with SIGKILL midway', () => {
  it('leaves every value readable, and the next rewrap resumes and retires the old term', async () => {
    const database = join(directory, 'shared.db');
    const rootKey = randomBytes(32);
    const writerDb = new SqliteStorage({ path: database });
    const writer = new EncryptedStorage({ storage: writerDb, key: rootKey });
    for (let index = 0; index < ENTRIES; index++)
      await writer.put(`kv/versions/${String(index).padStart(4, '0')}`, value(index));
    await writer.rotate();

    const child = fork(worker, [], {
      cwd: root,
      env: { ...process.env, DATABASE: database, ROOT_KEY: rootKey.toString('base64') },
      stdio: 'inherit',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let batches = 0;
    await new Promise<void>((resolve, reject) => {
      child.on('message', (message: { done: boolean }) => {
        batches += 1;
        if (message.done) reject(new Error('the worker finished before it was killed'));
        if (batches === 8) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => resolve());
    });
    expect(await exited).toBe(null);

    // The writer's process carries on: every value reads, whichever term it is in now.
    for (let index = 0; index < ENTRIES; index++) {
      expect(Buffer.from((await writer.get(`kv/versions/${String(index).padStart(4, '0')}`))!).toString()).toBe(
        `secret-${index}`,
      );
    }
    const report = await writer.rewrap({ batchSize: 10 });
    expect(report.done).toBe(true);
    expect(report.retired).toEqual([1]);
    // Resumed from the killed process's cursor rather than from the start.
    expect(report.visited).toBeLessThan(ENTRIES - 50);
    expect(await writer.keyringStatus()).toMatchObject({ active: 2, terms: [2], retired: [1] });
    const freshDb = new SqliteStorage({ path: database });
    const fresh = new EncryptedStorage({ storage: freshDb, key: rootKey });
    for (let index = 0; index < ENTRIES; index++) {
      expect(Buffer.from((await fresh.get(`kv/versions/${String(index).padStart(4, '0')}`))!).toString()).toBe(
        `secret-${index}`,
      );
    }
    await Promise.all([writerDb.close(), freshDb.close()]);
  });
});
