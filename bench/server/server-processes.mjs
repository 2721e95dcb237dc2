// The processes of the server-under-load section and the load they get: the shipped `strongroom server` command, the
// floor server, the fake AWS, each a child of its own so that their CPU is not the load generator's; and autocannon,
// a well-kept load generator, driving keep-alive clients at one of them.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/** The root token the real server is started with; the bench's admin requests and KV load carry it. */
export const ROOT_TOKEN = 'sr.bench-load-root';
const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

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

/**
 * Starts a child and waits until `ready(output)` finds what it needs in its output; answers that and the child. Once
 * ready, what the child writes is read and dropped: kept and searched on every chunk, a server's request log made the
 * load generator in this process slower with every request it sent, which read as the server getting slower.
 */
function start(command, args, env, ready) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const early = (code) => reject(new Error(`${args.join(' ')} exited (${code}) before it was ready:\n${output}`));
    const look = (chunk) => {
      output += chunk;
      const found = ready(output);
      if (found === undefined) return;
      for (const stream of [child.stdout, child.stderr]) {
        stream.off('data', look);
        stream.resume();
      }
      child.off('exit', early);
      output = '';
      resolve({ child, found });
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('exit', early);
  });
}

/** The `strongroom server` command as `npm start` runs it, its state in `directory`; `env` adds to its environment. */
export async function realServer(directory, env = {}) {
  const port = await freePort();
  const started = await start(
    process.execPath,
    [cli, 'server'],
    {
      HOST: '127.0.0.1',
      PORT: String(port),
      STRONGROOM_DATA_DIR: join(directory, 'server'),
      STRONGROOM_ROOT_TOKEN: ROOT_TOKEN,
      ...env,
    },
    (output) => (output.includes('VAULT_ADDR') ? true : undefined),
  );
  // Its request log goes on being written, as an operator's does, to a pipe read at once (start drops it).
  return { url: `http://127.0.0.1:${port}`, child: started.child };
}

/** A bench script run as a child that prints one line once ready; answers the child and what `parse` made of it. */
export async function benchChild(script, args, parse) {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const started = await start(process.execPath, [path, ...args], {}, (output) => {
    const line = /^(.*)\n/.exec(output)?.[1];
    return line === undefined ? undefined : parse(line);
  });
  return { child: started.child, found: started.found };
}

/**
 * The floor server (floor-server.mjs) over the storage `[directory, keys, ...postgres]` name, answering at its URL;
 * it records the real server's calls with the bench's root token before it serves.
 */
export async function floorServer([directory, keys, ...postgres]) {
  const args = [directory, keys, ROOT_TOKEN, ...postgres];
  const { child, found } = await benchChild('floor-server.mjs', args, Number);
  return { url: `http://127.0.0.1:${found}`, child };
}

/** Ends the children and waits for them to exit. */
export async function stopAll(children) {
  await Promise.all(
    children.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      return exited;
    }),
  );
}

/** An admin request to the real server, with the root token; throws on anything but a 2xx. */
export async function admin(url, method, path, body) {
  const answer = await fetch(`${url}/v1/${path}`, {
    method,
    headers: { 'x-vault-token': ROOT_TOKEN },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
}

/** Refusals a failed load run quotes (status and the start of the body), so that the failure says why. */
const QUOTED_REFUSALS = 5;

/**
 * One autocannon run of `seconds` with `connections` keep-alive clients; `next()` gives each request's method, path
 * and body in turn. Any answer but a 2xx, or any error, fails the run: a figure of refusals would mean nothing.
 */
export function load(url, { connections, seconds, token, next }) {
  const refusals = [];
  const quote = (status, body) => {
    if (status >= 300 && refusals.length < QUOTED_REFUSALS) refusals.push(`${status} ${body.slice(0, 300)}`);
  };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration: seconds,
        headers: { ...(token ? { 'x-vault-token': token } : {}), 'content-type': 'application/json' },
        requests: [{ setupRequest: (request) => ({ ...request, ...next() }), onResponse: quote }],
      },
      (error, result) => {
        if (error) return reject(error);
        if (result.non2xx > 0 || result.errors > 0)
          return reject(
            new Error(
              `${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors; first: ${refusals.join(' | ')}`,
            ),
          );
        resolve({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 });
      },
    );
  });
}

/** A second of load before a target's first measured round, so that no round times the JIT compiling its code. */
export const warmUp = (target, requests) => load(target.url, { connections: 8, seconds: 1, ...requests });
