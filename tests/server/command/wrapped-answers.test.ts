// Response wrapping under the `strongroom` command as users run it: the wrapped answer is in the data directory only
// encrypted, survives kill -9, and is unwrapped once by a process other than the one that wrapped it.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataDir, request } from '../harness.js';
import { killSpawned, spawnServer } from '../spawned.js';

afterEach(killSpawned);

const SECRET = `wrapped-${randomBytes(8).toString('hex')}`;

describe('strongroom server', () => {
  it('stores a wrapped answer encrypted, keeps it through kill -9, and lets a new process unwrap it once', async () => {
    const env = { STRONGROOM_DATA_DIR: dataDir() };
    const first = await spawnServer(env);
    const root = first.rootToken!;
    const wrapped = await request(first.url, {
      method: 'POST',
      path: '/v1/sys/wrapping/wrap',
      token: root,
      headers: { 'X-Vault-Wrap-TTL': '10m' },
      body: { secret: SECRET },
    });
    expect(wrapped.status).toBe(200);
    const wrapping = wrapped.json.wrap_info.token as string;
    first.child.kill('SIGKILL');
    await first.exited;

    const everything = Buffer.concat(
      readdirSync(env.STRONGROOM_DATA_DIR)
        .filter((name) => name !== 'root.key')
        .map((name) => readFileSync(join(env.STRONGROOM_DATA_DIR, name))),
    );
    for (const text of [SECRET, wrapping, 'secret']) expect(everything.includes(text), text).toBe(false);

    const second = await spawnServer(env);
    const unwrap = () => request(second.url, { method: 'POST', path: '/v1/sys/wrapping/unwrap', token: wrapping });
    const unwrapped = await unwrap();
    expect(unwrapped.status).toBe(200);
    expect(unwrapped.json.data).toEqual({ secret: SECRET });
    expect((await unwrap()).json).toEqual({ errors: ['wrapping token is not valid or does not exist'] });
    // The server's log holds neither.
    expect(second.log()).not.toContain(SECRET);
    expect(second.log()).not.toContain(wrapping);
    await second.stop();
  }, 60_000);
});
