// STRONGROOM_LOG_LEVEL (createServer's logLevel): which lines of the server's JSON log are written. Health checks are
// logged at debug, below the default info; a level that is not one of debug, info, warn, error is refused.
import { describe, expect, it, afterEach } from 'vitest';
import { createServer } from '../../../src/server/index.js';
import { request, startServer } from '../harness.js';
import { killSpawned, runCommand, spawnServer, type SpawnedServer } from '../spawned.js';

afterEach(killSpawned);

const TOKEN = 'sr.log-level-root';

/** Sends a health check and a KV read, stops the server, and answers the JSON lines it logged for requests. */
async function requestsLogged(server: SpawnedServer): Promise<Array<{ level: string; path: string }>> {
  expect((await request(server.url, { path: '/v1/sys/health' })).status).toBe(200);
  expect((await request(server.url, { path: '/v1/secret/data/missing', token: TOKEN })).status).toBe(404);
  expect(await server.stop()).toBe(0);
  return server
    .log()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: string; path: string })
    .filter((entry) => entry.path !== undefined);
}

describe('STRONGROOM_LOG_LEVEL', () => {
  it('is info by default: requests are logged, health checks are not', async () => {
    const logged = await requestsLogged(await spawnServer({ STRONGROOM_ROOT_TOKEN: TOKEN }));
    expect(logged).toEqual([expect.objectContaining({ level: 'info', path: '/v1/secret/data/missing' })]);
  });

  it('debug adds the health checks, logged at debug', async () => {
    const logged = await requestsLogged(
      await spawnServer({ STRONGROOM_ROOT_TOKEN: TOKEN, STRONGROOM_LOG_LEVEL: 'debug' }),
    );
    expect(logged).toEqual([
      expect.objectContaining({ level: 'debug', path: '/v1/sys/health' }),
      expect.objectContaining({ level: 'info', path: '/v1/secret/data/missing' }),
    ]);
  });

  it('warn leaves out the requests that went well', async () => {
    const logged = await requestsLogged(
      await spawnServer({ STRONGROOM_ROOT_TOKEN: TOKEN, STRONGROOM_LOG_LEVEL: 'warn' }),
    );
    expect(logged).toEqual([]);
  });

  it('writes one whole line for each of many requests answered at once, none lost when it stops', async () => {
    const server = await spawnServer({ STRONGROOM_ROOT_TOKEN: TOKEN });
    const paths = Array.from({ length: 40 }, (_, n) => `/v1/secret/data/missing-${n}`);
    await Promise.all(paths.map((path) => request(server.url, { path, token: TOKEN })));
    expect(await server.stop()).toBe(0);
    const logged = server
      .log()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { path?: string }).path)
      .filter((path) => path !== undefined);
    expect([...logged].sort()).toEqual([...paths].sort());
  });

  it('refuses another value with exit 1, naming the levels', async () => {
    const refused = await runCommand(['server'], { STRONGROOM_LOG_LEVEL: 'verbose' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'strongroom: STRONGROOM_LOG_LEVEL must be one of debug, info, warn, error, got "verbose"',
    );
  });
});

describe('createServer({ logLevel })', () => {
  it('filters the lines passed to a log of its own too', async () => {
    const started = await startServer({ rootToken: TOKEN, logLevel: 'error' });
    await request(started.url, { path: '/v1/secret/data/missing', token: TOKEN });
    await request(started.url, { path: '/v1/sys/health' });
    expect(started.logs).toEqual([]);
    await started.stop();
  });

  it('refuses a level it does not know, a TypeError naming it', () => {
    expect(() => createServer({ logLevel: 'loud' as never })).toThrow(
      new TypeError('logLevel must be one of debug, info, warn, error; got "loud"'),
    );
  });
});
