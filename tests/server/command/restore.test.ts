// Point in time through the real `strongroom server`: as_of reads and folder restores over HTTP, resumed across a
// SIGTERM and a kill -9 over one SQLite file, and two processes over one PostgreSQL restoring one folder at once.
import { afterEach, describe, expect, it } from 'vitest';
import { postgresAvailable } from '../../support/postgres.js';
import { dataDir, request } from '../harness.js';
import { killSpawned, overOnePostgres, spawnServer, type SpawnedServer } from '../spawned.js';

const ROOT = 'sr.restore-root';
afterEach(() => killSpawned());

const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

function client(server: SpawnedServer, token = ROOT) {
  return (options: Parameters<typeof request>[1]) => request(server.url, { token, ...options });
}

type Send = ReturnType<typeof client>;

async function write(send: Send, path: string, data: Record<string, unknown>) {
  const answer = await send({ method: 'POST', path: `/v1/secret/data/${path}`, body: { data } });
  expect(answer.status).toBe(200);
  return answer.json.data as { created_time: string; version: number };
}

async function current(send: Send, path: string) {
  const answer = await send({ path: `/v1/secret/data/${path}` });
  return answer.status === 200 ? answer.json.data.data : answer.status;
}

describe('over one SQLite file, across restarts', () => {
  it('reads as_of, refuses bad input, and resumes a paged restore after SIGTERM and kill -9', async () => {
    const env = { STRONGROOM_DATA_DIR: dataDir(), STRONGROOM_ROOT_TOKEN: ROOT };
    let server = await spawnServer(env);
    let send = client(server);
    await write(send, 'app/a', { v: 1 });
    const then = (await write(send, 'app/b', { v: 1 })).created_time;
    await pause();
    await write(send, 'app/a', { v: 2 });
    await write(send, 'app/c', { v: 1 });

    expect(await server.stop()).toBe(0);
    server = await spawnServer(env);
    send = client(server);
    const read = await send({ path: `/v1/secret/data/app/a?as_of=${encodeURIComponent(then)}` });
    expect(read.status).toBe(200);
    expect(read.json.data).toMatchObject({ data: { v: 1 }, metadata: { version: 1 } });
    expect((await send({ path: '/v1/secret/data/app/c?as_of=' + encodeURIComponent(then) })).status).toBe(404);

    const restore = (body: Record<string, unknown>, path = 'app/') =>
      send({ method: 'POST', path: `/v1/secret/restore/${path}`, body: { as_of: then, ...body } });
    for (const [body, path, message] of [
      [{ as_of: 'not a time' }, 'app/', 'RFC 3339'],
      [{ as_of: '2999-01-01T00:00:00Z' }, 'app/', 'future'],
      [{ limit: 5000 }, 'app/', 'limit'],
      [{}, 'app', 'restore/app/'],
    ] as const) {
      const refused = await restore(body, path);
      expect(refused.status).toBe(400);
      expect(refused.json.errors.join()).toContain(message);
    }
    const badRead = await send({ path: '/v1/secret/data/app/a?as_of=today&version=1' });
    expect(badRead.status).toBe(400);

    const dry = await restore({ dry_run: true });
    expect(dry.json.data).toMatchObject({ restored: ['app/a'], deleted: ['app/c'], unchanged: ['app/b'] });
    const first = await restore({ limit: 1 });
    expect(first.json.data).toMatchObject({ restored: ['app/a'], complete: false, next: 'a' });

    server.child.kill('SIGKILL');
    await server.exited;
    server = await spawnServer(env);
    send = client(server);
    const rest = await restore({ after: first.json.data.next });
    expect(rest.json.data).toMatchObject({ restored: [], unchanged: ['app/b'], deleted: ['app/c'], complete: true });
    expect([await current(send, 'app/a'), await current(send, 'app/b'), await current(send, 'app/c')]).toEqual([
      { v: 1 },
      { v: 1 },
      404,
    ]);
    expect((await send({ path: '/v1/secret/metadata/app/a' })).json.data.current_version).toBe(3);
  }, 90_000);

  it('a token with read but not update, or update but not read, restores nothing and learns nothing', async () => {
    const server = await spawnServer({ STRONGROOM_DATA_DIR: dataDir(), STRONGROOM_ROOT_TOKEN: ROOT });
    const send = client(server);
    const then = (await write(send, 'team/x', { v: 1 })).created_time;
    await pause();
    await write(send, 'team/x', { v: 2 });
    const route =
      'path "secret/restore/*" { capabilities = ["update"] }\npath "secret/metadata/*" { capabilities = ["list"] }';
    const tokens: string[] = [];
    for (const [name, caps] of [
      ['reader', '["read"]'],
      ['updater', '["update", "delete"]'],
    ] as const) {
      const policy = `${route}\npath "secret/data/*" { capabilities = ${caps} }`;
      expect((await send({ method: 'PUT', path: `/v1/sys/policies/acl/${name}`, body: { policy } })).status).toBe(204);
      const made = await send({ method: 'POST', path: '/v1/auth/token/create', body: { policies: [name] } });
      tokens.push(made.json.auth.client_token);
    }
    for (const token of tokens) {
      const answer = await client(
        server,
        token,
      )({
        method: 'POST',
        path: '/v1/secret/restore/team/',
        body: { as_of: then },
      });
      expect(answer.status).toBe(200);
      expect(answer.json.data).toEqual({
        restored: [],
        deleted: [],
        unchanged: [],
        skipped: ['team/x'],
        destroyed: [],
        dry_run: false,
        complete: true,
      });
    }
    expect(await current(send, 'team/x')).toEqual({ v: 2 });
  }, 60_000);
});

describe.runIf(postgresAvailable())('two processes over one PostgreSQL', () => {
  it('restoring one folder at once write each key once: one restores it, the other finds it unchanged', async () => {
    await overOnePostgres(2, ROOT, async ([a, b]) => {
      const [sendA, sendB] = [client(a!), client(b!)];
      const keys = Array.from({ length: 30 }, (_, index) => `f/k${String(index).padStart(2, '0')}`);
      let then = '';
      for (const key of keys) then = (await write(sendA, key, { v: 1 })).created_time;
      await pause();
      for (const key of keys) await write(sendB, key, { v: 2 });
      for (const key of keys.slice(0, 5)) await write(sendB, `${key}-new`, { v: 1 });

      const body = { as_of: then };
      const answers = await Promise.all(
        [sendA, sendB].map((send) => send({ method: 'POST', path: '/v1/secret/restore/f/', body })),
      );
      const [ra, rb] = answers.map((answer) => {
        expect(answer.status).toBe(200);
        return answer.json.data;
      });
      const restored = [...ra.restored, ...rb.restored].sort();
      const deleted = [...ra.deleted, ...rb.deleted].sort();
      expect(restored).toEqual(keys);
      expect(deleted).toEqual(keys.slice(0, 5).map((key) => `${key}-new`));
      // Whatever one restored, the other found unchanged: no key got two versions.
      expect([...ra.unchanged, ...rb.unchanged].sort()).toEqual([...restored, ...deleted].sort());
      for (const key of keys) {
        const metadata = (await sendB({ path: `/v1/secret/metadata/${key}` })).json.data;
        expect(metadata.current_version).toBe(3);
        expect(await current(sendA, key)).toEqual({ v: 1 });
      }
    });
  }, 150_000);
});
