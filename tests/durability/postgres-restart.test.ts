// A PostgreSQL restart under load, as an operator meets it: two `strongroom server` processes over one real
// PostgreSQL, writers on both, the database stopped for a few seconds and started again. Requests stay bounded by the
// storage timeouts, service resumes within 2 s of PostgreSQL's return, each process logs the outage once (start and
// end), its readiness probe follows the database, and every acknowledged write is there exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres, type PostgresServer } from '../support/postgres.js';
import { dataDir, request } from '../server/harness.js';
import { useServerProcesses, type ServerProcess } from './server-process.js';

const CONNECT_TIMEOUT_S = 1;
const STATEMENT_TIMEOUT_S = 2;
/** The documented bound of one request: both storage timeouts, plus the stated margin of 1 s. */
const REQUEST_BOUND_MS = (CONNECT_TIMEOUT_S + STATEMENT_TIMEOUT_S + 1) * 1000;
const WRITERS = 3;
const OUTAGE_MS = 4000;
const PASSWORD = 'never-logged-pw';
const ROOT = 'sr.outage-root';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Attempt {
  writer: number;
  server: number;
  key: string;
  started: number;
  ended: number;
  status: number;
}

describe.skipIf(!postgresAvailable())('a PostgreSQL restart under two servers and their writers', () => {
  const { start: spawnServer, refused } = useServerProcesses();
  let postgres: PostgresServer;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await postgres?.stop();
  });

  it('bounds every request, resumes within 2 s, logs the outage once, and keeps every acknowledged write once', async () => {
    const url = postgres.url.replace('postgres@', `postgres:${PASSWORD}@`);
    const env = {
      STRONGROOM_STORAGE_URL: url,
      STRONGROOM_ROOT_KEY: Buffer.alloc(32, 7).toString('base64'),
      STRONGROOM_ROOT_TOKEN: ROOT,
      STRONGROOM_STORAGE_CONNECT_TIMEOUT: String(CONNECT_TIMEOUT_S),
      STRONGROOM_STORAGE_STATEMENT_TIMEOUT: String(STATEMENT_TIMEOUT_S),
    };
    const servers: ServerProcess[] = [];
    for (let i = 0; i < 2; i++) servers.push(await spawnServer({ ...env, STRONGROOM_DATA_DIR: dataDir() }));

    const attempts: Attempt[] = [];
    const probes: Array<{ server: number; at: number; status: number }> = [];
    let running = true;
    const writer = async (index: number) => {
      for (let n = 0; running; n++) {
        const server = (index + n) % servers.length;
        const key = `w${index}-${n}`;
        const started = Date.now();
        const answer = await request(servers[server]!.url, {
          method: 'POST',
          path: `/v1/secret/data/${key}`,
          token: ROOT,
          body: { data: { n } },
        });
        attempts.push({ writer: index, server, key, started, ended: Date.now(), status: answer.status });
        if (answer.status !== 200) await sleep(50);
      }
    };
    const prober = async () => {
      while (running) {
        await Promise.all(
          servers.map(async (server, index) => {
            const answer = await request(server.url, { path: '/v1/sys/health?ready=true' });
            probes.push({ server: index, at: Date.now(), status: answer.status });
          }),
        );
        await sleep(200);
      }
    };
    const work = [...Array.from({ length: WRITERS }, (_, index) => writer(index)), prober()];

    await sleep(1000);
    const haltedAt = Date.now();
    // `pg_ctl stop` as an operator types it: fast mode, which ends the sessions with an error first.
    await postgres.halt('fast');
    await sleep(OUTAGE_MS);
    await postgres.start();
    const backAt = Date.now();
    await sleep(2500);
    running = false;
    await Promise.all(work);

    const longest = Math.max(...attempts.map((attempt) => attempt.ended - attempt.started));
    const failed = attempts.filter((attempt) => attempt.status !== 200);
    const firstSuccess = servers.map((_, index) =>
      Math.min(
        ...attempts
          .filter((attempt) => attempt.server === index && attempt.status === 200 && attempt.ended >= backAt)
          .map((attempt) => attempt.ended - backAt),
      ),
    );
    console.log(
      `postgres restart: ${attempts.length} writes, ${failed.length} refused; longest request ${longest} ms (bound ${REQUEST_BOUND_MS}); first success after PostgreSQL was back: ${firstSuccess.join(' ms, ')} ms`,
    );

    expect(failed.length, 'the outage refused some writes').toBeGreaterThan(0);
    for (const attempt of failed) expect(attempt.status, `${attempt.key} answered`).toBe(503);
    expect(longest).toBeLessThanOrEqual(REQUEST_BOUND_MS);
    for (const ms of firstSuccess) expect(ms).toBeLessThanOrEqual(2000);

    for (const [index, server] of servers.entries()) {
      const during = probes.filter((probe) => probe.server === index && probe.at > haltedAt + 500 && probe.at < backAt);
      expect(during.map((probe) => probe.status)).toContain(503);
      expect(probes.filter((probe) => probe.server === index).at(-1)!.status).toBe(200);

      const began = server.logs.filter((entry) => entry.msg === 'storage outage began');
      const ended = server.logs.filter((entry) => entry.msg === 'storage outage ended');
      expect(began, `server ${index}: outage start lines: ${JSON.stringify([...began, ...ended])}`).toHaveLength(1);
      expect(ended, `server ${index}: outage end lines`).toHaveLength(1);
      expect(began[0]!.storage).toBe(`127.0.0.1:${postgres.port}/postgres`);
      expect(String(began[0]!.cause)).not.toBe('');
      expect(ended[0]!.storage).toBe(`127.0.0.1:${postgres.port}/postgres`);
      expect(server.output()).not.toContain(PASSWORD);
    }

    // Every acknowledged write is readable, written once; no key holds a second version (none applied twice), and a
    // refused write is there at most once.
    const reader = servers[0]!.url;
    const check = async (attempt: Attempt) => {
      const metadata = await request(reader, { path: `/v1/secret/metadata/${attempt.key}`, token: ROOT });
      if (attempt.status !== 200 && metadata.status === 404) return;
      expect(metadata.status, `${attempt.key}: ${metadata.text}`).toBe(200);
      expect(metadata.json.data.current_version, `${attempt.key}: versions`).toBe(1);
      const read = await request(reader, { path: `/v1/secret/data/${attempt.key}`, token: ROOT });
      expect(read.status, `${attempt.key}: ${read.text}`).toBe(200);
      expect(read.json.data.data, attempt.key).toEqual({ n: Number(attempt.key.split('-')[1]) });
    };
    for (let from = 0; from < attempts.length; from += 50)
      await Promise.all(attempts.slice(from, from + 50).map(check));
    await Promise.all(servers.map((server) => server.stop()));
  }, 60_000);

  it.each(['STRONGROOM_STORAGE_CONNECT_TIMEOUT', 'STRONGROOM_STORAGE_STATEMENT_TIMEOUT'])(
    'refuses to start with a bad %s, saying which and why',
    async (name) => {
      const dir = dataDir();
      const { code, stderr } = await refused({
        STRONGROOM_STORAGE_URL: postgres.url,
        STRONGROOM_DATA_DIR: dir,
        [name]: '5s',
      });
      expect(code).toBe(1);
      expect(stderr).toContain(`strongroom: ${name} must be a number of seconds from 0.1 to 3600, got "5s"`);
      expect(stderr).not.toMatch(/\n\s+at /);
    },
  );
});
