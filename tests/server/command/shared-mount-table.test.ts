// Two `strongroom server` processes over one storage share one mount table: a mount enabled, moved, tuned or disabled
// through one is what the very next request to the other finds, over one SQLite file and over one PostgreSQL.
import { afterEach, describe, expect, it } from 'vitest';
import { postgresAvailable } from '../../support/postgres.js';
import { dataDir, request } from '../harness.js';
import { killSpawned, overOnePostgres, spawnServer, type SpawnedServer } from '../spawned.js';

const ROOT = 'sr.shared-mounts';
afterEach(() => killSpawned());

function client(server: SpawnedServer) {
  return (options: Parameters<typeof request>[1]) => request(server.url, { token: ROOT, ...options });
}

/** What every storage must show: each change made through one process is seen by the next request to the other. */
async function shareOneTable(a: SpawnedServer, b: SpawnedServer): Promise<void> {
  const [sendA, sendB] = [client(a), client(b)];
  const kvV2 = { type: 'kv', options: { version: '2' } };
  expect((await sendA({ method: 'POST', path: '/v1/sys/mounts/shared', body: kvV2 })).status).toBe(204);
  expect((await sendB({ method: 'POST', path: '/v1/shared/data/x', body: { data: { from: 'b' } } })).status).toBe(200);
  expect((await sendA({ path: '/v1/shared/data/x' })).json.data.data).toEqual({ from: 'b' });

  const moved = await sendB({ method: 'POST', path: '/v1/sys/remount', body: { from: 'shared', to: 'moved' } });
  expect(moved.status).toBe(200);
  expect((await sendA({ path: '/v1/moved/data/x' })).json.data.data).toEqual({ from: 'b' });
  expect((await sendA({ path: '/v1/shared/data/x' })).status).toBe(404);

  expect(
    (await sendA({ method: 'POST', path: '/v1/sys/mounts/moved/tune', body: { max_lease_ttl: '1h' } })).status,
  ).toBe(204);
  expect((await sendB({ path: '/v1/sys/mounts/moved/tune' })).json.data.max_lease_ttl).toBe(3600);

  expect((await sendA({ method: 'POST', path: '/v1/sys/auth/aws-shared', body: { type: 'aws' } })).status).toBe(204);
  expect((await sendB({ path: '/v1/sys/auth' })).json.data['aws-shared/']).toMatchObject({ type: 'aws' });
  const role = { auth_type: 'ec2', bound_ami_id: ['ami-0123456789abcdef0'] };
  expect((await sendB({ method: 'POST', path: '/v1/auth/aws-shared/role/web', body: role })).status).toBe(204);
  expect((await sendA({ path: '/v1/auth/aws-shared/role/web' })).json.data.bound_ami_id).toEqual([
    'ami-0123456789abcdef0',
  ]);

  expect((await sendB({ method: 'DELETE', path: '/v1/sys/mounts/moved' })).status).toBe(204);
  expect((await sendA({ path: '/v1/moved/data/x' })).status).toBe(404);
  expect((await sendA({ path: '/v1/sys/mounts' })).json.data['moved/']).toBeUndefined();

  // The same path asked of both at once: one mount is made, and the other process is told the path is taken.
  const raced = await Promise.all(
    [sendA, sendB].map((send) => send({ method: 'POST', path: '/v1/sys/mounts/raced', body: kvV2 })),
  );
  expect(raced.map((answer) => answer.status).sort()).toEqual([204, 409]);
  expect(raced.find((answer) => answer.status === 409)!.json).toEqual({
    errors: ['path is already in use at raced/'],
  });
  const tables = await Promise.all([sendA, sendB].map((send) => send({ path: '/v1/sys/mounts' })));
  expect(tables[0]!.json.data).toEqual(tables[1]!.json.data);
}

describe('two processes over one SQLite file', () => {
  it('share one mount table', async () => {
    const env = { STRONGROOM_DATA_DIR: dataDir(), STRONGROOM_ROOT_TOKEN: ROOT };
    const a = await spawnServer(env);
    await shareOneTable(a, await spawnServer(env));
  }, 60_000);
});

describe.runIf(postgresAvailable())('two processes over one PostgreSQL', () => {
  it('share one mount table, its defaults written once by two starting at once', async () => {
    // Started together over an empty database: both find no table, and one writes the defaults.
    await overOnePostgres(2, ROOT, async ([a, b]) => {
      const defaults = await Promise.all([a!, b!].map((server) => client(server)({ path: '/v1/sys/auth' })));
      expect(defaults[0]!.json.data['aws/'].uuid).toBe(defaults[1]!.json.data['aws/'].uuid);
      await shareOneTable(a!, b!);
    });
  }, 150_000);
});
