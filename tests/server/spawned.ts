// The `strongroom` command as a user runs it: a child process of the bundled command, its output collected. Every
// child started here is killed by `killSpawned()` (call it after each test), so a failed test leaves no server behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { startPostgres } from '../support/postgres.js';
import { builtCli, dataDir } from './harness.js';

const running: ChildProcess[] = [];

/** Kills (SIGKILL) every child started by this module that is still running. */
export function killSpawned(): void {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export interface SpawnedServer {
  child: ChildProcess;
  url: string;
  /** What the server wrote on stderr up to the end of its banner. */
  banner: string;
  /** The root token the banner printed, if it printed one. */
  rootToken: string | undefined;
  exited: Promise<number | null>;
  /** What the server wrote on stdout so far: its JSON log. */
  log(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** The environment of a test run: a free port, no inherited root token, a fresh data directory unless given. */
const baseEnv = (env: Record<string, string>) => ({
  ...process.env,
  PORT: '0',
  STRONGROOM_ROOT_TOKEN: '',
  STRONGROOM_DATA_DIR: dataDir(),
  ...env,
});

/** Starts `strongroom server` and waits for its whole banner; rejects with its output when it exits first. */
export async function spawnServer(env: Record<string, string> = {}): Promise<SpawnedServer> {
  const child = spawn(process.execPath, [await builtCli(), 'server'], {
    env: baseEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let banner = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      const found = /listening on (https?:\/\/\S+)/.exec(banner);
      if (found && banner.includes('VAULT_ADDR')) resolve(found[1]!);
    });
    child.on('exit', () => reject(new Error(`strongroom server exited early:\n${banner}`)));
  });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const rootToken = /root token: (sr\.\S+)/.exec(banner)?.[1];
  return {
    child,
    url,
    banner,
    rootToken,
    exited,
    log: () => log,
    stop: () => (child.kill('SIGTERM'), exited),
  };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `strongroom ...args` to its end. */
export async function runCommand(args: readonly string[], env: Record<string, string> = {}): Promise<Finished> {
  const child = spawn(process.execPath, [await builtCli(), ...args], { env: baseEnv(env), stdio: 'pipe' });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/**
 * Runs `use` with `count` `strongroom server` processes started together over one throwaway PostgreSQL (one root key,
 * the root token `rootToken`), then kills them and removes the database.
 */
export async function overOnePostgres(
  count: number,
  rootToken: string,
  use: (servers: SpawnedServer[]) => Promise<void>,
): Promise<void> {
  const postgres = await startPostgres();
  try {
    const env = {
      STRONGROOM_STORAGE_URL: postgres.url,
      STRONGROOM_ROOT_KEY: randomBytes(32).toString('base64'),
      STRONGROOM_ROOT_TOKEN: rootToken,
    };
    const starts = Array.from({ length: count }, () => spawnServer({ ...env, STRONGROOM_DATA_DIR: dataDir() }));
    await use(await Promise.all(starts));
  } finally {
    killSpawned();
    await postgres.stop();
  }
}
