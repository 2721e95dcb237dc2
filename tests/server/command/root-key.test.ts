// The root key of `strongroom server`: data encrypted under STRONGROOM_ROOT_KEY and started without it is refused
// with the settings that supply the key, and no key file is written (it would be the wrong key, reused ever after);
// a later start with the key serves the data.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataDir, request } from '../harness.js';
import { killSpawned, runCommand, spawnServer } from '../spawned.js';

afterEach(killSpawned);

const STRONGROOM_ROOT_TOKEN = 'sr.root-key-test';
const key = () => randomBytes(32).toString('base64');

async function writeSecret(env: Record<string, string>): Promise<void> {
  const server = await spawnServer({ STRONGROOM_ROOT_TOKEN, ...env });
  const written = await request(server.url, {
    method: 'POST',
    path: '/v1/secret/data/app',
    token: STRONGROOM_ROOT_TOKEN,
    body: { data: { password: 'kept' } },
  });
  expect(written.status).toBe(200);
  expect(await server.stop()).toBe(0);
}

async function readSecret(env: Record<string, string>): Promise<unknown> {
  const server = await spawnServer({ STRONGROOM_ROOT_TOKEN, ...env });
  const read = await request(server.url, { path: '/v1/secret/data/app', token: STRONGROOM_ROOT_TOKEN });
  expect(await server.stop()).toBe(0);
  return read.json.data.data;
}

describe('the root key of strongroom server', () => {
  it('refuses data encrypted with STRONGROOM_ROOT_KEY when started without it, and writes no key file', async () => {
    const STRONGROOM_DATA_DIR = dataDir();
    const STRONGROOM_ROOT_KEY = key();
    await writeSecret({ STRONGROOM_DATA_DIR, STRONGROOM_ROOT_KEY });
    const keyFile = join(STRONGROOM_DATA_DIR, 'root.key');
    expect(existsSync(keyFile)).toBe(false);

    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await runCommand(['server'], { STRONGROOM_ROOT_TOKEN, STRONGROOM_DATA_DIR });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `strongroom: the data in SQLite ${join(STRONGROOM_DATA_DIR, 'strongroom.db')} was encrypted with a root key this start was not given`,
      );
      expect(refused.stderr).toContain('set STRONGROOM_ROOT_KEY to that key');
      expect(refused.stderr).toContain(`put the key file it was made with at ${keyFile}`);
      expect(refused.stderr).not.toContain(STRONGROOM_ROOT_KEY);
      expect(refused.stderr).not.toMatch(/^\s+at /m);
      expect(existsSync(keyFile)).toBe(false);
    }

    expect(await readSecret({ STRONGROOM_DATA_DIR, STRONGROOM_ROOT_KEY })).toEqual({ password: 'kept' });
  }, 30_000);

  it('refuses another key with the settings it comes from, and serves with the right one', async () => {
    const STRONGROOM_DATA_DIR = dataDir();
    await writeSecret({ STRONGROOM_DATA_DIR });
    const keyFile = join(STRONGROOM_DATA_DIR, 'root.key');
    expect(existsSync(keyFile)).toBe(true);

    const other = key();
    const refused = await runCommand(['server'], {
      STRONGROOM_ROOT_TOKEN,
      STRONGROOM_DATA_DIR,
      STRONGROOM_ROOT_KEY: other,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the root key does not open the stored keyring');
    expect(refused.stderr).toContain('This key came from STRONGROOM_ROOT_KEY');
    expect(refused.stderr).toContain(`or in the key file ${keyFile} (used when STRONGROOM_ROOT_KEY is not set)`);
    expect(refused.stderr).not.toContain(other);

    expect(await readSecret({ STRONGROOM_DATA_DIR })).toEqual({ password: 'kept' });
  }, 30_000);
});
