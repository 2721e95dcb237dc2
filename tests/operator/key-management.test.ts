// Key management as an operator runs it on a live deployment: two `strongroom server` processes over one real
// PostgreSQL keep serving reads and writes (no failed request, every acknowledged write readable afterwards) through
// POST sys/rotate on one of them, `strongroom operator rewrap` (also SIGKILLed mid-way and run again) and
// `strongroom operator rekey`.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EncryptedStorage } from '../../src/index.js';
import { PostgresStorage } from '../../src/postgres.js';
import { builtCli, dataDir, request } from '../server/harness.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../support/postgres.js';
import {
  killLeftovers,
  missing,
  ROOT_TOKEN,
  runCli,
  startCliServer,
  Writers,
  type RunningServer,
} from './operator-harness.js';

const OLD_KEY = randomBytes(32).toString('base64');
const NEW_KEY = randomBytes(32).toString('base64');
/** Entries written straight into the storage, so that a rewrap has enough batches to be killed in the middle. */
const PRELOADED = 600;

let cli: string;
let pg: PostgresServer;
let env: Record<string, string>;
let servers: RunningServer[] = [];
let writers: Writers;
let sql: postgres.Sql;

/** The key term of every stored value outside the keyring's folder, by term. */
async function termsInTable(): Promise<Map<number, number>> {
  const rows = await sql<{ value: Buffer }[]>`SELECT value FROM strongroom WHERE key NOT LIKE '.encryption/%'`;
  const counts = new Map<number, number>();
  for (const { value } of rows) counts.set(value.readUInt32BE(1), (counts.get(value.readUInt32BE(1)) ?? 0) + 1);
  return counts;
}

const keyStatus = async (server: RunningServer) =>
  (await request(server.url, { path: '/v1/sys/key-status', token: ROOT_TOKEN })).json;

describe.skipIf(!postgresAvailable())('key management over one PostgreSQL shared by two servers', () => {
  beforeAll(async () => {
    [cli, pg] = await Promise.all([builtCli(), startPostgres()]);
    env = { STRONGROOM_STORAGE_URL: pg.url, STRONGROOM_ROOT_KEY: OLD_KEY, STRONGROOM_DATA_DIR: dataDir() };
    sql = postgres(pg.url, { max: 1, onnotice: () => undefined });
    const inner = new PostgresStorage({ connectionString: pg.url });
    const storage = new EncryptedStorage({ storage: inner, key: Buffer.from(OLD_KEY, 'base64') });
    for (let start = 0; start < PRELOADED; start += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) => storage.put(`preloaded/${start + i}`, Buffer.from(`v${start + i}`))),
      );
    }
    await inner.close();
    servers = [await startCliServer(cli, env), await startCliServer(cli, env)];
    writers = new Writers(servers.map((server) => server.url));
    await writers.more(20);
  }, 120_000);

  afterAll(async () => {
    await writers?.stop();
    await Promise.all(servers.map((server) => server.stop()));
    killLeftovers();
    await sql?.end();
    await pg?.stop();
  });

  it('POST sys/rotate on one server: the other seals its new writes under the new term, without a restart', async () => {
    expect((await keyStatus(servers[1]!)).data.term).toBe(1);
    const rotate = await request(servers[0]!.url, { method: 'POST', path: '/v1/sys/rotate', token: ROOT_TOKEN });
    expect(rotate.status).toBe(204);
    const status = await keyStatus(servers[1]!);
    expect(status.data.term).toBe(2);
    expect(status.term).toBe(2);
    expect(Date.parse(status.data.install_time)).toBeGreaterThan(Date.now() - 60_000);

    const written = await request(servers[1]!.url, {
      method: 'POST',
      path: '/v1/secret/data/after-rotation',
      token: ROOT_TOKEN,
      body: { data: { value: 'new term' } },
    });
    expect(written.status).toBe(200);
    const rows = await sql<{ value: Buffer }[]>`SELECT value FROM strongroom WHERE key LIKE '%after-rotation%'`;
    expect(rows.length).toBeGreaterThan(0);
    for (const { value } of rows) expect(value.readUInt32BE(1)).toBe(2);
    await writers.more(10);
    expect(writers.failures).toEqual([]);
  });

  it('`operator rewrap` re-seals every value under the new term while both servers serve', async () => {
    const run = await runCli(cli, ['operator', 'rewrap', '-batch-size=50'], env);
    expect(run.stderr).toContain('retired key terms 1');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Rewrap done: \d+ keys visited, \d+ re-sealed; every value is under key term 2/);
    expect([...(await termsInTable()).keys()]).toEqual([2]);
    await writers.more(10);
    expect(writers.failures).toEqual([]);
  });

  it('a SIGKILLed `operator rewrap` resumes where it stopped when run again', async () => {
    const rotate = await request(servers[1]!.url, { method: 'PUT', path: '/v1/sys/rotate', token: ROOT_TOKEN });
    expect(rotate.status).toBe(204);
    const killed = await runCli(cli, ['operator', 'rewrap', '-batch-size=5'], env, (stderr, child) => {
      if (/\d+ keys visited/.test(stderr)) child.kill('SIGKILL');
    });
    expect(killed.signal).toBe('SIGKILL');
    const half = await termsInTable();
    expect(half.get(2)).toBeGreaterThan(0);
    expect(half.get(3)).toBeGreaterThan(0);

    const passed = Number(/(\d+) keys visited/.exec(killed.stderr)![1]);
    const resumed = await runCli(cli, ['operator', 'rewrap', '-batch-size=5'], env);
    expect(resumed.code).toBe(0);
    const visited = Number(/Rewrap done: (\d+) keys visited/.exec(resumed.stdout)![1]);
    const terms = await termsInTable();
    expect([...terms.keys()]).toEqual([3]);
    // Resumed after the killed run's last batch: of the keys stored now (none is ever deleted here), those the killed
    // run had passed are not visited again. New keys keep arriving on both sides of its cursor meanwhile.
    expect(passed).toBeGreaterThan(40);
    expect(visited).toBeLessThanOrEqual(terms.get(3)! - passed);
    expect((await keyStatus(servers[0]!)).data.term).toBe(3);
    await writers.more(10);
    expect(writers.failures).toEqual([]);
  });

  it('`operator rekey` seals the keyring under a new root key; the servers keep serving, the old key stops opening it', async () => {
    const run = await runCli(cli, ['operator', 'rekey'], { ...env, STRONGROOM_NEW_ROOT_KEY: NEW_KEY });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('the old root key no longer opens it');
    await writers.more(20);
    // A server started with the old key, rotating after the rekey, keeps the keyring under the new key.
    expect((await request(servers[0]!.url, { method: 'POST', path: '/v1/sys/rotate', token: ROOT_TOKEN })).status).toBe(
      204,
    );
    await writers.more(20);
    await writers.stop();
    expect(writers.failures).toEqual([]);

    const refused = await runCli(cli, ['server'], { ...env, PORT: '0' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the root key does not open the stored keyring');

    const restarted = await startCliServer(cli, { ...env, STRONGROOM_ROOT_KEY: NEW_KEY });
    servers.push(restarted);
    expect((await keyStatus(restarted)).data.term).toBe(4);
    expect(writers.acknowledged.length).toBeGreaterThan(100);
    expect(await missing(restarted.url, writers.acknowledged)).toEqual([]);
  });
});
