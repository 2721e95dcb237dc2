// What the operator tests share: `strongroom server` processes started as an operator starts them, `strongroom
// operator ...` runs, and writers that keep writing through a server, remembering every write it acknowledged and
// every request that failed.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from '../server/harness.js';

export const ROOT_TOKEN = 'operator-test-root';

export interface RunningServer {
  child: ChildProcess;
  url: string;
  /** Everything it printed on stderr. */
  output(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();

/** Kills whatever a test left running (call from afterEach / afterAll). */
export function killLeftovers(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
}

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** `strongroom server` on a free port with `env` (on top of this process's), once it listens. */
export async function startCliServer(cli: string, env: Record<string, string>): Promise<RunningServer> {
  const child = track(
    spawn(process.execPath, [cli, 'server'], {
      env: { ...process.env, PORT: '0', STRONGROOM_ROOT_TOKEN: ROOT_TOKEN, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
  let output = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(output);
      if (found && output.includes('root token')) resolve(found[1]!);
    });
    child.on('exit', () => reject(new Error(`strongroom server exited early:\n${output}`)));
  });
  return {
    child,
    url,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `strongroom ARGS` to its end. `onStderr` sees the error output as it comes (to kill the run mid-way). */
export function runCli(
  cli: string,
  args: string[],
  env: Record<string, string>,
  onStderr?: (text: string, child: ChildProcess) => void,
): Promise<CliRun> {
  const child = track(spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env } }));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    onStderr?.(stderr, child);
  });
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

export interface Acknowledged {
  key: string;
  value: string;
  /** When the server's 200 arrived (Date.now()). */
  at: number;
}

/**
 * Writers that each write new keys through one of `urls`, in turn, and read back a key of their own now and then,
 * until `stop()`. Every acknowledged write is kept; every request that did not succeed is a failure.
 */
export class Writers {
  readonly acknowledged: Acknowledged[] = [];
  readonly failures: string[] = [];
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(urls: readonly string[], perUrl = 2) {
    this.loops = urls.flatMap((url, u) => Array.from({ length: perUrl }, (_, w) => this.loop(url, `w${u}-${w}`)));
  }

  private async loop(url: string, name: string): Promise<void> {
    for (let n = 0; this.running; n++) {
      const key = `${name}/k${n}`;
      const value = `${name}-${n}`;
      try {
        const write = await request(url, {
          method: 'POST',
          path: `/v1/secret/data/${key}`,
          token: ROOT_TOKEN,
          body: { data: { value } },
        });
        if (write.status !== 200) this.failures.push(`write ${key}: ${write.status} ${write.text}`);
        else this.acknowledged.push({ key, value, at: Date.now() });
        const read = await request(url, { path: `/v1/secret/data/${name}/k${n >> 1}`, token: ROOT_TOKEN });
        if (read.status !== 200) this.failures.push(`read ${name}/k${n >> 1}: ${read.status} ${read.text}`);
      } catch (error) {
        this.failures.push(`${key}: ${String(error)}`);
      }
    }
  }

  /** Waits until at least `count` more writes are acknowledged. */
  async more(count: number): Promise<void> {
    const target = this.acknowledged.length + count;
    while (this.acknowledged.length < target && this.failures.length === 0)
      await new Promise((resolve) => setTimeout(resolve, 20));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

/** Checks that `url` serves every acknowledged write with its value; answers the keys that it does not. */
export async function missing(url: string, writes: readonly Acknowledged[]): Promise<string[]> {
  const lost: string[] = [];
  for (const { key, value } of writes) {
    const read = await request(url, { path: `/v1/secret/data/${key}`, token: ROOT_TOKEN });
    if (read.status !== 200 || read.json?.data?.data?.value !== value) lost.push(`${key}: ${read.status}`);
  }
  return lost;
}
