// The shipped server as its users see it: requests per second and latency with 1, 8 and 32 keep-alive clients
// (autocannon), KV reads and writes against `strongroom server` as `npm start` runs it (SQLite behind encryption, the
// JSON request log on), beside a floor server (floor-server.mjs) doing only the same storage calls, JSON and
// encryption. Both run as processes of their own; the load generator runs here. Rounds alternate the two.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { pairedResult, settings } from './harness.mjs';

const ROOT_TOKEN = 'sr.bench-load-root';
const KEYS = 64;
const CLIENTS = [1, 8, 32];
const ROUNDS = 2;
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a child and waits until `ready(output)` finds what it needs in its output; answers that and the child. */
function start(command, args, env, ready) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const look = (chunk) => {
      output += chunk;
      const found = ready(output);
      if (found !== undefined) resolve({ child, found });
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('exit', (code) =>
      reject(new Error(`${args.join(' ')} exited (${code}) before it was ready:\n${output}`)),
    );
  });
}

async function realServer(directory) {
  const port = await freePort();
  const env = {
    HOST: '127.0.0.1',
    PORT: String(port),
    STRONGROOM_DATA_DIR: join(directory, 'server'),
    STRONGROOM_ROOT_TOKEN: ROOT_TOKEN,
  };
  const started = await start(process.execPath, [cli, 'server'], env, (output) =>
    output.includes('VAULT_ADDR') ? true : undefined,
  );
  // Its request log goes on being written, as an operator's does, to a pipe nobody reads slowly.
  started.child.stdout.resume();
  return { url: `http://127.0.0.1:${port}`, child: started.child };
}

async function floorServer(directory) {
  const script = fileURLToPath(new URL('floor-server.mjs', import.meta.url));
  const started = await start(process.execPath, [script, directory, String(KEYS)], {}, (output) => {
    const port = /^(\d+)\n/.exec(output)?.[1];
    return port === undefined ? undefined : Number(port);
  });
  return { url: `http://127.0.0.1:${started.found}`, child: started.child };
}

/** One autocannon run: each request names one of the KEYS keys in turn. */
function load(url, { method, connections, seconds }) {
  let next = 0;
  const body = JSON.stringify({ data: { password: 'y'.repeat(100) } });
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration: seconds,
        headers: { 'x-vault-token': ROOT_TOKEN, 'content-type': 'application/json' },
        requests: [
          {
            method,
            ...(method === 'POST' ? { body } : {}),
            setupRequest: (request) => ({ ...request, path: `/v1/secret/data/load/${next++ % KEYS}` }),
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        if (result.non2xx > 0 || result.errors > 0)
          return reject(new Error(`${method} ${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`));
        resolve({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 });
      },
    );
  });
}

export async function serverLoadBenchmarks(log) {
  const directory = mkdtempSync(join(tmpdir(), 'strongroom-bench-load-'));
  const seconds = Math.max(1, Math.round((settings.time * 8) / 1000));
  const real = await realServer(directory);
  const floor = await floorServer(directory);
  try {
    // The real server's keys, written once through its API: the floor wrote the same through the engine.
    for (let n = 0; n < KEYS; n++) {
      const answer = await fetch(`${real.url}/v1/secret/data/load/${n}`, {
        method: 'POST',
        headers: { 'x-vault-token': ROOT_TOKEN },
        body: JSON.stringify({ data: { password: 'x'.repeat(100), n } }),
      });
      if (!answer.ok) throw new Error(`seeding the server: ${answer.status} ${await answer.text()}`);
    }
    const rows = [];
    for (const [operation, method] of [
      ['read', 'GET'],
      ['write', 'POST'],
    ]) {
      for (const connections of CLIENTS) {
        log(`server load: KV ${operation}, ${connections} client(s), ${ROUNDS} rounds of ${seconds} s per server`);
        const server = [];
        const limit = [];
        for (let round = 0; round < ROUNDS; round++) {
          // Alternating which goes first, as the other sections' rounds do.
          const order = round % 2 === 0 ? [real, floor] : [floor, real];
          for (const target of order)
            (target === real ? server : limit).push(await load(target.url, { method, connections, seconds }));
        }
        const result = pairedResult(
          server.map((one) => one.rps),
          limit.map((one) => one.rps),
        );
        const last = server.at(-1);
        rows.push({
          section: 'server',
          name: `Server KV ${operation}, ${connections} client${connections > 1 ? 's' : ''} (SQLite, encrypted)`,
          unit: 'req/s',
          result,
          limitName: 'floor server: same storage calls, JSON, encryption',
          measuredText: `${Math.round(result.subject.median).toLocaleString('en-US')} req/s, p50 ${last.p50} ms, p99 ${last.p99} ms`,
          goal: connections === 32 ? { kind: 'ratio-min', value: 0.5 } : { kind: 'info' },
        });
      }
    }
    rows.push({
      section: 'server',
      name: "OpenBao 2.0.2's published single-node figures (information)",
      unit: 'req/s',
      measuredText: 'KV v2 write 140 req/s (p99 668 ms), read 27,385 req/s; 32 workers, Threadripper 2950X',
      goal: { kind: 'info' },
    });
    return rows;
  } finally {
    real.child.kill('SIGTERM');
    floor.child.kill('SIGTERM');
    await Promise.all(
      [real, floor].map(({ child }) =>
        child.exitCode === null && child.signalCode === null
          ? new Promise((resolve) => child.once('exit', resolve))
          : undefined,
      ),
    );
    rmSync(directory, { recursive: true, force: true });
  }
}
