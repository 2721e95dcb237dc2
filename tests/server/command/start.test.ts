// The `strongroom server` command (what `npm start` runs) as a user runs it: a child process that prints its URL and
// root token, serves, and stops cleanly on SIGTERM and SIGINT. Also graceful close() and the periodic timer.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Storage } from '../../../src/ports/storage.js';
import { testStorage } from '../../support/test-storage.js';
import { dataDir, request, startServer } from '../harness.js';
import { killSpawned, runCommand, spawnServer as start } from '../spawned.js';

afterEach(killSpawned);

describe('strongroom server', () => {
  it('generates and prints a root token when none is given, and it works', async () => {
    const { url, banner } = await start();
    const token = /root token: (\S+)/.exec(banner)![1]!;
    expect(token).toMatch(/^sr\./);
    const write = await request(url, {
      method: 'POST',
      path: '/v1/secret/data/hello',
      token,
      body: { data: { who: 'world' } },
    });
    expect(write.status).toBe(200);
  });

  it('takes the root token from STRONGROOM_ROOT_TOKEN without printing it, and stops on SIGTERM', async () => {
    const { child, url, banner, exited } = await start({ STRONGROOM_ROOT_TOKEN: 'dev-root-token' });
    expect(banner).not.toContain('dev-root-token');
    expect(banner).toContain('KV v2 engine at');
    expect((await request(url, { path: '/v1/sys/health' })).json.sealed).toBe(false);
    expect((await request(url, { method: 'LIST', path: '/v1/secret/metadata/', token: 'dev-root-token' })).status).toBe(
      404,
    );
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('rotates the root token when STRONGROOM_ROOT_TOKEN changes, and the tokens the old one made live on', async () => {
    const STRONGROOM_DATA_DIR = dataDir();
    const restart = async (env: Record<string, string>) => {
      const started = await start({ STRONGROOM_DATA_DIR, ...env });
      return { ...started, stop: async () => (started.child.kill('SIGTERM'), expect(await started.exited).toBe(0)) };
    };
    const status = async (url: string, token: string) =>
      (await request(url, { path: '/v1/auth/token/lookup-self', token })).status;

    let server = await restart({});
    const generated = /root token: (\S+)/.exec(server.banner)![1]!;
    await server.stop();
    server = await restart({ STRONGROOM_ROOT_TOKEN: 'sr.first-root' });
    const app = (
      await request(server.url, {
        method: 'POST',
        path: '/v1/auth/token/create',
        token: 'sr.first-root',
        body: { policies: ['default'] },
      })
    ).json.auth;
    expect(await status(server.url, generated)).toBe(403);
    await server.stop();

    server = await restart({ STRONGROOM_ROOT_TOKEN: 'sr.second-root' });
    expect(await status(server.url, 'sr.first-root')).toBe(403);
    expect(await status(server.url, 'sr.second-root')).toBe(200);
    expect(await status(server.url, app.client_token)).toBe(200);
    const byAccessor = await request(server.url, {
      method: 'POST',
      path: '/v1/auth/token/lookup-accessor',
      token: 'sr.second-root',
      body: { accessor: app.accessor },
    });
    expect(byAccessor.json.data.policies).toEqual(['default']);
    await server.stop();

    // Unset, the variable changes nothing: the last root token given stays the root token.
    server = await restart({});
    expect(server.banner).not.toMatch(/root token: sr\./);
    expect(await status(server.url, 'sr.second-root')).toBe(200);
    expect(await status(server.url, 'sr.first-root')).toBe(403);
    await server.stop();

    // Started again with a token retired earlier (a rollback, an old process restarting mid-rotation): the configured
    // token works again and the other is retired, rather than both ending up retired.
    server = await restart({ STRONGROOM_ROOT_TOKEN: 'sr.first-root' });
    expect(await status(server.url, 'sr.first-root')).toBe(200);
    expect(await status(server.url, 'sr.second-root')).toBe(403);
    expect(await status(server.url, app.client_token)).toBe(200);
    await server.stop();
  }, 60_000);

  it('stops on SIGINT', async () => {
    const { child, exited } = await start();
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('refuses a PORT that is not a port number', async () => {
    const { code, stderr } = await runCommand(['server'], { PORT: 'eighty' });
    expect(code).toBe(1);
    expect(stderr).toContain('PORT must be a port number');
  });
});

describe('the command line', () => {
  const run = (...args: string[]) => runCommand(args);

  it.each([['--help'], ['-h'], ['help']])('lists the commands and succeeds: strongroom %s', async (...args) => {
    const { code, stdout, stderr } = await run(...args);
    expect(code).toBe(0);
    expect(stdout).toContain('usage: strongroom <command>');
    expect(stdout).toMatch(/^ {2}server +serve both engines/m);
    expect(stderr).toBe('');
  });

  it.each([
    ['server', '--help'],
    ['server', '-h'],
    ['help', 'server'],
  ])('prints the usage and succeeds: strongroom %s', async (...args) => {
    const { code, stdout, stderr } = await run(...args);
    expect(code).toBe(0);
    expect(stdout).toContain('usage: strongroom server');
    expect(stderr).toBe('');
  });

  it.each([
    [['serve'], 'unknown command "serve"', 'usage: strongroom <command>'],
    [[], 'a command is needed', 'usage: strongroom <command>'],
    [['help', 'serve'], 'unknown command "serve"', 'usage: strongroom <command>'],
    [['server', '--port', '8300'], 'unexpected argument "--port"', 'usage: strongroom server'],
  ])('names what is wrong, then the usage, and fails with 1: strongroom %s', async (args, problem, usage) => {
    const { code, stdout, stderr } = await run(...args);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`strongroom: ${problem}`);
    expect(stderr).toContain(usage);
  });
});

describe('close()', () => {
  it('lets a request in flight finish, then refuses new connections', async () => {
    const inner = testStorage();
    let reached!: () => void;
    const inStorage = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let armed = false;
    // A storage whose reads of the secret wait at a gate, so that a request is provably in flight when close() is called.
    const storage: Storage = {
      get: async (key) => {
        if (armed && key.includes('slow')) {
          reached();
          await gate;
        }
        return inner.get(key);
      },
      put: (key, value) => inner.put(key, value),
      delete: (key) => inner.delete(key),
      list: (prefix) => inner.list(prefix),
    };
    const started = await startServer({ storage });
    armed = true;
    const pending = request(started.url, { path: '/v1/secret/data/slow', token: started.rootToken });
    await inStorage;
    const closed = started.app.close({ graceMs: 10_000 });
    release();
    const answer = await pending;
    expect(answer.status).toBe(404);
    expect(answer.headers.connection).toBe('close');
    await closed;
    await expect(request(started.url, { path: '/v1/sys/health' })).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('periodic work', () => {
  it('runs on its timer', async () => {
    const started = await startServer({ periodicIntervalMs: 5 });
    const periodic = vi.spyOn(started.app.auth, 'periodic');
    await vi.waitFor(() => expect(periodic.mock.calls.length).toBeGreaterThanOrEqual(2));
    await started.stop();
  });
});
