// What `strongroom server` stores survives: SIGTERM and kill -9 restarts over SQLite, nothing readable in the data
// directory, and two processes over one PostgreSQL serving the same tokens.
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres, type PostgresServer } from '../../support/postgres.js';
import { builtCli, dataDir, request } from '../harness.js';

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Running {
  child: ChildProcess;
  url: string;
  banner: string;
  exited: Promise<number | null>;
}

async function serve(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [await builtCli(), 'server'], {
    env: { ...process.env, PORT: '0', STRONGROOM_ROOT_TOKEN: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.push(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let banner = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(banner);
      if (found && banner.includes('VAULT_ADDR')) resolve(found[1]!);
    });
    child.on('exit', () => reject(new Error(`strongroom server exited:\n${banner}`)));
  });
  return { child, url, banner, exited };
}

const SECRET = `secret-${randomBytes(8).toString('hex')}`;
const POLICY = `path "secret/data/kept/*" { capabilities = ["read"] } # marker-${randomBytes(4).toString('hex')}`;

describe('restarts over SQLite', () => {
  it('keeps secrets, tokens, policies and revocations through SIGTERM and kill -9, and stores nothing readable', async () => {
    const env = { STRONGROOM_DATA_DIR: dataDir() };
    const first = await serve(env);
    const root = /root token: (sr\.\S+)/.exec(first.banner)![1]!;
    expect(first.banner).toContain('created the root key file');
    const send = (url: string, options: Parameters<typeof request>[1]) => request(url, { token: root, ...options });

    expect(
      (await send(first.url, { method: 'PUT', path: '/v1/sys/policies/acl/kept', body: { policy: POLICY } })).status,
    ).toBe(204);
    expect(
      (await send(first.url, { method: 'POST', path: '/v1/secret/data/kept/db', body: { data: { password: SECRET } } }))
        .status,
    ).toBe(200);
    const create = async (url: string, body: object) =>
      (await send(url, { method: 'POST', path: '/v1/auth/token/create', body })).json.auth.client_token as string;
    const live = await create(first.url, { policies: ['kept'] });
    const revoked = await create(first.url, { policies: ['kept'] });
    const shortLived = await create(first.url, { policies: ['kept'], ttl: '1s' });
    const limited = await create(first.url, { policies: ['kept'], num_uses: 2 });
    expect((await send(first.url, { path: '/v1/secret/data/kept/db', token: limited })).status).toBe(200);
    expect(
      (await send(first.url, { method: 'POST', path: '/v1/auth/token/revoke', body: { token: revoked } })).status,
    ).toBe(204);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await serve(env);
    expect(second.banner).not.toContain(root);
    expect(second.banner).toContain('made at the first start');
    const read = await send(second.url, { path: '/v1/secret/data/kept/db', token: live });
    expect(read.json.data.data).toEqual({ password: SECRET });
    expect((await send(second.url, { path: '/v1/sys/policies/acl/kept' })).json.data.policy).toBe(POLICY);
    expect((await send(second.url, { path: '/v1/auth/token/lookup-self', token: revoked })).status).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await send(second.url, { path: '/v1/auth/token/lookup-self', token: shortLived })).status).toBe(403);
    // One use was spent before the restart: one is left.
    expect((await send(second.url, { path: '/v1/secret/data/kept/db', token: limited })).status).toBe(200);
    expect((await send(second.url, { path: '/v1/secret/data/kept/db', token: limited })).status).toBe(403);
    // Acknowledged, then the process is killed outright.
    expect(
      (
        await send(second.url, {
          method: 'POST',
          path: '/v1/secret/data/kept/db',
          body: { data: { password: `${SECRET}-2` } },
        })
      ).status,
    ).toBe(200);
    const afterKill = await create(second.url, { policies: ['kept'] });
    expect((await send(second.url, { method: 'POST', path: '/v1/auth/token/revoke-self', token: live })).status).toBe(
      204,
    );
    second.child.kill('SIGKILL');
    await second.exited;

    const third = await serve(env);
    const reread = await send(third.url, { path: '/v1/secret/data/kept/db', token: afterKill });
    expect(reread.json.data).toMatchObject({ data: { password: `${SECRET}-2` }, metadata: { version: 2 } });
    expect((await send(third.url, { path: '/v1/auth/token/lookup-self', token: live })).status).toBe(403);
    third.child.kill('SIGTERM');
    await third.exited;

    const files = readdirSync(env.STRONGROOM_DATA_DIR);
    expect(files).toContain('strongroom.db');
    const everything = Buffer.concat(
      files.filter((name) => name !== 'root.key').map((name) => readFileSync(join(env.STRONGROOM_DATA_DIR, name))),
    );
    for (const text of [SECRET, POLICY, 'capabilities', root, live, revoked, afterKill, 'password'])
      expect(everything.includes(text)).toBe(false);
  }, 120_000);

  it('refuses to start with a root key that does not open the data', async () => {
    const env = { STRONGROOM_DATA_DIR: dataDir(), STRONGROOM_ROOT_KEY: randomBytes(32).toString('base64') };
    const first = await serve(env);
    first.child.kill('SIGTERM');
    await first.exited;
    await expect(serve({ ...env, STRONGROOM_ROOT_KEY: randomBytes(32).toString('base64') })).rejects.toThrow(
      /root key/,
    );
  }, 60_000);
});

describe('two processes over one SQLite file', () => {
  // A token's last use used to leave its entry at 0 uses left, which reads as unlimited, until the revocation that
  // follows landed: a request on the other process in between was let through, and so was one whose use was counted
  // against the exhausted entry.
  it('let a use-limited token through exactly num_uses times, however many requests arrive at once', async () => {
    const env = { STRONGROOM_DATA_DIR: dataDir(), STRONGROOM_ROOT_TOKEN: 'sr.uses-root' };
    const servers = [await serve(env), await serve(env)];
    const send = (index: number, options: Parameters<typeof request>[1]) =>
      request(servers[index % 2]!.url, { token: 'sr.uses-root', ...options });
    await send(0, {
      method: 'PUT',
      path: '/v1/sys/policies/acl/reader',
      body: { policy: 'path "secret/data/*" { capabilities = ["read"] }' },
    });
    const passed: number[] = [];
    for (let round = 0; round < 20; round++) {
      const token = (
        await send(round, {
          method: 'POST',
          path: '/v1/auth/token/create',
          body: { policies: ['reader'], num_uses: 3 },
        })
      ).json.auth.client_token;
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) => send(i, { path: '/v1/secret/data/missing', token })),
      );
      // 404: let through (there is no such key); 403: used up.
      expect(
        answers
          .filter((answer) => answer.status !== 404 && answer.status !== 403)
          .map((answer) => `${answer.status} ${answer.text}`),
      ).toEqual([]);
      passed.push(answers.filter((answer) => answer.status === 404).length);
    }
    expect(passed).toEqual(Array(20).fill(3));
  }, 120_000);
});

describe.runIf(postgresAvailable())('two processes over one PostgreSQL', () => {
  let postgres: PostgresServer;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 120_000);
  afterAll(() => postgres?.stop());

  it('share tokens, policies and secrets: created on one, used and revoked on the other; nothing readable in the table', async () => {
    const env = {
      STRONGROOM_STORAGE_URL: postgres.url,
      STRONGROOM_ROOT_KEY: randomBytes(32).toString('base64'),
      STRONGROOM_ROOT_TOKEN: 'sr.pg-root',
      STRONGROOM_DATA_DIR: dataDir(),
    };
    const [a, b] = [await serve(env), await serve({ ...env, STRONGROOM_DATA_DIR: dataDir() })];
    const send = (url: string, options: Parameters<typeof request>[1]) =>
      request(url, { token: 'sr.pg-root', ...options });
    expect(
      (await send(a.url, { method: 'PUT', path: '/v1/sys/policies/acl/shared', body: { policy: POLICY } })).status,
    ).toBe(204);
    expect(
      (await send(b.url, { method: 'POST', path: '/v1/secret/data/kept/pg', body: { data: { password: SECRET } } }))
        .status,
    ).toBe(200);
    const token = (
      await send(a.url, { method: 'POST', path: '/v1/auth/token/create', body: { policies: ['shared'], num_uses: 3 } })
    ).json.auth.client_token;
    expect((await send(b.url, { path: '/v1/secret/data/kept/pg', token })).json.data.data).toEqual({
      password: SECRET,
    });
    expect((await send(a.url, { path: '/v1/auth/token/lookup-self', token })).json.data.num_uses).toBe(1);
    expect((await send(b.url, { method: 'POST', path: '/v1/auth/token/revoke', body: { token } })).status).toBe(204);
    expect((await send(a.url, { path: '/v1/secret/data/kept/pg', token })).status).toBe(403);

    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT * FROM strongroom');
      const dumped = JSON.stringify(
        rows.map((row) =>
          Object.values(row).map((value) => (Buffer.isBuffer(value) ? value.toString('latin1') : String(value))),
        ),
      );
      expect(rows.length).toBeGreaterThan(5);
      for (const text of [SECRET, POLICY, 'capabilities', 'sr.pg-root', token, 'password'])
        expect(dumped).not.toContain(text);
    } finally {
      await client.end();
    }
  }, 120_000);
});
