// Runs the built `strongroom` command as a child process, as a user runs it: its own environment (HOME in a fresh
// directory, so no token file of the machine's is read), optional stdin, and its exit code and both streams.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { builtCli, startServer, type Started } from '../server/harness.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A fresh HOME for one user of the command. */
export function freshHome(): string {
  return mkdtempSync(join(tmpdir(), 'strongroom-home-'));
}

/** Runs `cli` with `args`; `env` is the whole environment besides PATH (nothing of the test process leaks in). */
export function runCli(
  cli: string,
  args: readonly string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<CliResult> {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A `strongroom server` process on a free port, over a fresh data directory. */
export interface ServedCommand {
  url: string;
  stop(): void;
}

/** Spawns `strongroom server` with `env` over the test process's environment, and waits for its address. */
export function serveCommand(cli: string, env: Record<string, string>): Promise<ServedCommand> {
  const child = spawn(process.execPath, [cli, 'server'], {
    env: { ...process.env, PORT: '0', STRONGROOM_DATA_DIR: mkdtempSync(join(tmpdir(), 'strongroom-data-')), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stop = () => void (child.exitCode === null && child.kill('SIGKILL'));
  let banner = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(banner);
      if (found) resolve({ url: found[1]!, stop });
    });
    child.on('exit', () => reject(new Error(`strongroom server exited early:\n${banner}`)));
  });
}

/** What {@link cliWithServer} gives a test file, once its tests start. */
export interface CliWithServer {
  cli: string;
  server: Started;
  /** A fresh HOME for the file's commands. */
  home: string;
}

/** For one test file: the built command and a server, ready before its tests and stopped after them. */
export function cliWithServer(): CliWithServer {
  const context = {} as CliWithServer;
  beforeAll(async () => {
    [context.cli, context.server] = await Promise.all([builtCli(), startServer()]);
    context.home = freshHome();
  }, 120_000);
  afterAll(() => context.server?.stop());
  return context;
}
