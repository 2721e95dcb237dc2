// The shipped server as its users see it: requests per second and latency with 1, 8 and 32 keep-alive clients
// (autocannon) against `strongroom server`, KV reads and writes as `npm start` runs it (SQLite behind encryption, the
// JSON request log on) and over PostgreSQL, each beside a floor server (floor-server.mjs) doing only the same storage
// calls, JSON and encryption over the same kind of storage; then ec2 and iam logins end to end against the fake AWS
// (server-logins.mjs). Servers run as processes of their own; the load generator runs here. Rounds alternate the two.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyData, writeBody } from './floor-replay.mjs';
import { pairedResult, settings } from '../harness/harness.mjs';
import { postgresHarness } from '../harness/postgres.mjs';
import { loginRows } from './server-logins.mjs';
import { admin, floorServer, load, realServer, ROOT_TOKEN, stopAll, warmUp } from './server-processes.mjs';

const KEYS = 64;
const CLIENTS = [1, 8, 32];
/** The clients of the rows with a goal: they get the rounds of every other goal of the bench, the rest fewer. */
const GOAL_CLIENTS = 32;
const ROUNDS = 2;

/** Each request names one of the KEYS keys in turn. */
function kvRequests(method) {
  let next = 0;
  const body = JSON.stringify(writeBody);
  return () => ({ method, path: `/v1/secret/data/load/${next++ % KEYS}`, ...(method === 'POST' ? { body } : {}) });
}

/** KV read and write rows at each number of clients, the real server beside the floor over the same storage. */
async function kvRows(storage, real, floor, seconds, log) {
  // The real server's keys, written once through its API: the floor had a real server write the same in its process.
  for (let n = 0; n < KEYS; n++) await admin(real.url, 'POST', `secret/data/load/${n}`, { data: keyData(n) });
  const rows = [];
  for (const [operation, method] of [
    ['read', 'GET'],
    ['write', 'POST'],
  ]) {
    for (const target of [real, floor]) await warmUp(target, { token: ROOT_TOKEN, next: kvRequests(method) });
    for (const connections of CLIENTS) {
      // Two rounds made a goal row's ratio the mean of two 3-second windows, each at the mercy of one noisy moment.
      const rounds = connections === GOAL_CLIENTS ? Math.max(ROUNDS, settings.rounds) : ROUNDS;
      log(
        `server load: KV ${operation} (${storage}), ${connections} client(s), ${rounds} rounds of ${seconds} s per server`,
      );
      const server = [];
      const limit = [];
      for (let round = 0; round < rounds; round++) {
        // Alternating which goes first, as the other sections' rounds do.
        const order = round % 2 === 0 ? [real, floor] : [floor, real];
        for (const target of order) {
          const run = await load(target.url, { connections, seconds, token: ROOT_TOKEN, next: kvRequests(method) });
          (target === real ? server : limit).push(run);
        }
      }
      const result = pairedResult(
        server.map((one) => one.rps),
        limit.map((one) => one.rps),
      );
      const last = server.at(-1);
      rows.push({
        section: 'server',
        name: `Server KV ${operation}, ${connections} client${connections > 1 ? 's' : ''} (${storage}, encrypted)`,
        unit: 'req/s',
        result,
        limitName: 'floor server: same storage calls, JSON, encryption',
        measuredText: `${Math.round(result.subject.median).toLocaleString('en-US')} req/s, p50 ${last.p50} ms, p99 ${last.p99} ms`,
        goal: connections === GOAL_CLIENTS ? { kind: 'ratio-min', value: 0.5 } : { kind: 'info' },
      });
    }
  }
  return rows;
}

/** The PostgreSQL rows: one throwaway cluster flushing every commit, the server's table and the floor's in it. */
async function postgresRows(directory, seconds, log) {
  const { postgresAvailable, startPostgres } = await postgresHarness(directory);
  if (!postgresAvailable()) return [];
  const cluster = await startPostgres({ durable: true });
  const children = [];
  try {
    const real = await realServer(join(directory, 'postgres'), { STRONGROOM_STORAGE_URL: cluster.url });
    children.push(real.child);
    const floor = await floorServer([directory, String(KEYS), cluster.url, 'bench_floor']);
    children.push(floor.child);
    return await kvRows('PostgreSQL', real, floor, seconds, log);
  } finally {
    await stopAll(children);
    await cluster.stop();
  }
}

export async function serverLoadBenchmarks(log) {
  const directory = mkdtempSync(join(tmpdir(), 'strongroom-bench-load-'));
  const seconds = Math.max(1, Math.round((settings.time * 8) / 1000));
  const children = [];
  try {
    const real = await realServer(join(directory, 'sqlite'));
    children.push(real.child);
    const floor = await floorServer([directory, String(KEYS)]);
    children.push(floor.child);
    const rows = await kvRows('SQLite', real, floor, seconds, log);
    const logins = await loginRows(real, { clients: CLIENTS, rounds: ROUNDS, seconds }, log);
    await stopAll(children.splice(0));
    rows.push(...(await postgresRows(directory, seconds, log)), ...logins);
    rows.push({
      section: 'server',
      name: "OpenBao 2.0.2's published single-node figures (information)",
      unit: 'req/s',
      measuredText: 'KV v2 write 140 req/s (p99 668 ms), read 27,385 req/s; 32 workers, Threadripper 2950X',
      goal: { kind: 'info' },
    });
    return rows;
  } finally {
    await stopAll(children);
    rmSync(directory, { recursive: true, force: true });
  }
}
