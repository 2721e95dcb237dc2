// `strongroom server` as an operator runs it: a child process configured by its environment, whose banner (stderr)
// gives its URL and root token and whose stdout is its JSON log, one entry a line.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, beforeAll } from 'vitest';
import { builtCli } from '../server/harness.js';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  rootToken: string;
  /** Every JSON log line the process has printed so far. */
  logs: Record<string, unknown>[];
  /** Every byte the process wrote, both streams: to check what it never says. */
  output(): string;
  stop(): Promise<void>;
}

const running: ChildProcess[] = [];

/** A start that is expected to fail: its exit code and what it said. */
export interface FailedStart {
  code: number | null;
  stderr: string;
}

/**
 * Builds the command before the file's tests; after each test, kills what it left running. Answers how to start a
 * server, and how to run one that should refuse to start.
 */
export function useServerProcesses(): {
  start: (env: Record<string, string>) => Promise<ServerProcess>;
  refused: (env: Record<string, string>) => Promise<FailedStart>;
} {
  let cli: string;
  beforeAll(async () => {
    cli = await builtCli();
  }, 120_000);
  afterEach(() => {
    for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });
  return {
    start: (env) => startServerProcess(cli, env),
    refused: (env) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [cli, 'server'], {
          env: { ...process.env, PORT: '0', ...env },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        running.push(child);
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.once('exit', (code) => resolve({ code, stderr }));
      }),
  };
}

async function startServerProcess(cli: string, env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [cli, 'server'], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const logs: Record<string, unknown>[] = [];
  let all = '';
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    all += chunk.toString();
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) if (line.startsWith('{')) logs.push(JSON.parse(line) as Record<string, unknown>);
  });
  let banner = '';
  const started = await new Promise<{ url: string; rootToken: string }>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      all += chunk.toString();
      banner += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1];
      // The tests hand the root token in, so that a start's banner need not print one.
      if (url && banner.includes('root token')) resolve({ url, rootToken: env.STRONGROOM_ROOT_TOKEN ?? '' });
    });
    child.once('exit', () => reject(new Error(`strongroom server exited early:\n${banner}`)));
  });
  return {
    child,
    ...started,
    logs,
    output: () => all,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
