// Real OS processes over one database: the worker is bundled once per test file (into a directory inside the repo, so
// that the database drivers resolve from node_modules) and forked as many times as a test needs.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';
import type { EngineRequest, EngineResponse } from '../../src/core/framework/request.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../support/postgres.js';
import type { Ack, WorkerMessage, WorkerReply } from './worker.js';

const root = resolve(import.meta.dirname, '../..');

/**
 * Bundles the worker for the calling test file (once, before its tests) and, after them, kills any worker a failed
 * test left running and removes the bundle. Answers the bundle's path.
 */
export function useWorkerScript(): () => string {
  let built: { script: string; remove(): void } | undefined;
  beforeAll(async () => {
    built = await buildWorker();
  }, 60_000);
  afterAll(async () => {
    await stopAllWorkers();
    built?.remove();
  });
  return () => built!.script;
}

export async function buildWorker(): Promise<{ script: string; remove(): void }> {
  const directory = mkdtempSync(join(root, '.tmp-durability-'));
  const script = join(directory, 'worker.mjs');
  await build({
    entryPoints: [join(root, 'tests/durability/worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: script,
    packages: 'external',
    logLevel: 'silent',
  });
  return { script, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

/** Where the processes of one test meet: a fresh SQLite file or a fresh PostgreSQL table. */
export interface Backend {
  name: 'sqlite' | 'postgres';
  env(): Record<string, string>;
  stop(): Promise<void>;
}

export const postgresHere = postgresAvailable();

export async function sqliteBackend(): Promise<Backend> {
  const directory = mkdtempSync(join(tmpdir(), 'strongroom-durability-'));
  let files = 0;
  let current = '';
  return {
    name: 'sqlite',
    env: () => ({
      STORAGE_KIND: 'sqlite',
      STORAGE_TARGET: current || (current = join(directory, `shared-${files++}.db`)),
    }),
    stop: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

/** The databases every durability test runs on: [name, open, available here]. */
export const BACKENDS: ReadonlyArray<[string, () => Promise<Backend>, boolean]> = [
  ['SQLite', () => sqliteBackend(), true],
  ['PostgreSQL', () => postgresBackend(), postgresHere],
];

export async function postgresBackend(): Promise<Backend & { server: PostgresServer }> {
  const server = await startPostgres();
  return {
    name: 'postgres',
    server,
    env: () => ({ STORAGE_KIND: 'postgres', STORAGE_TARGET: server.url }),
    stop: () => server.stop(),
  };
}

/** A message without its id, for each kind of message (Omit alone would merge the union). */
type Outgoing<T = WorkerMessage> = T extends WorkerMessage ? Omit<T, 'id'> : never;

const live = new Set<Worker>();

/** Kills every worker still running (a failed test may leave some behind). */
export async function stopAllWorkers(): Promise<void> {
  await Promise.all([...live].map((worker) => worker.stop()));
}

export class Worker {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(reply: WorkerReply): void; reject(error: Error): void }>();
  readonly acks: Ack['ack'][] = [];
  readonly exited: Promise<void>;
  private loadError?: string;

  private constructor(readonly child: ChildProcess) {
    child.on('message', (message: WorkerReply | Ack) => {
      if ('ack' in message) return void this.acks.push(message.ack);
      if (message.id === -1) this.loadError = message.error;
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message);
    });
    this.exited = new Promise((done) =>
      child.once('exit', () => {
        for (const waiter of this.pending.values()) waiter.reject(new Error('worker exited'));
        done();
      }),
    );
  }

  static async start(script: string, env: Record<string, string>): Promise<Worker> {
    const child = fork(script, [], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    const worker = new Worker(child);
    live.add(worker);
    void worker.exited.then(() => live.delete(worker));
    await new Promise<void>((resolve, reject) => {
      worker.pending.set(0, { resolve: () => resolve(), reject });
    });
    return worker;
  }

  private send(message: Outgoing): Promise<WorkerReply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ ...message, id });
    });
  }

  async kv(request: EngineRequest): Promise<EngineResponse> {
    return (await this.send({ type: 'kv', request })).response!;
  }

  async auth(request: EngineRequest): Promise<EngineResponse> {
    return (await this.send({ type: 'auth', request })).response!;
  }

  async do(message: Outgoing<Exclude<WorkerMessage, { type: 'kv' | 'auth' }>>): Promise<void> {
    await this.send(message);
  }

  get failure(): string | undefined {
    return this.loadError;
  }

  async stop(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

export async function workers(script: string, count: number, env: Record<string, string>): Promise<Worker[]> {
  const started: Worker[] = [];
  // One at a time: the first creates the table, and four simultaneous cold starts only slow a 2-core machine.
  for (let index = 0; index < count; index++) started.push(await Worker.start(script, env));
  return started;
}
