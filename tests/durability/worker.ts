// One service process of the durability tests: its own KvEngine and AuthEngine (the AuthMethod core, over a fake
// cloud) on the shared storage named by its environment. The parent drives it over IPC; in `load` mode it writes
// on its own and reports each acknowledged write, until it is killed.
import { ManualClock } from '../../src/lib/clocks.js';
import { AuthEngine } from '../../src/auth/auth-engine.js';
import type { EngineRequest, EngineResponse } from '../../src/core/framework/request.js';
import { KvEngine } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { PostgresStorage } from '../../src/postgres.js';
import { SqliteStorage } from '../../src/sqlite.js';
import { FakeCloud } from '../support/fake-cloud.js';

export type WorkerMessage =
  | { id: number; type: 'kv' | 'auth'; request: EngineRequest }
  | {
      id: number;
      type: 'instance';
      instance: { instanceId: string; accountId: string; imageId: string; region: string };
    }
  | { id: number; type: 'clock'; time: string }
  | { id: number; type: 'idle' }
  | { id: number; type: 'load'; prefix: string; streams: number; keys: number };

export interface WorkerReply {
  id: number;
  response?: EngineResponse;
  error?: string;
}

/** An acknowledged write of load mode. */
export interface Ack {
  ack: { path: string; version: number; value: number };
}

const env = process.env;
const storage: Storage =
  env.STORAGE_KIND === 'postgres'
    ? new PostgresStorage({ connectionString: env.STORAGE_TARGET!, poolSize: 4 })
    : new SqliteStorage({
        path: env.STORAGE_TARGET!,
        synchronous: env.SQLITE_SYNCHRONOUS === 'normal' ? 'normal' : 'full',
      });
const clock = new ManualClock(env.CLOCK ?? '2026-01-01T00:10:00Z');
const cloud = new FakeCloud();
const faults: string[] = [];
const onInternalError = (error: unknown) => faults.push(String((error as Error)?.stack ?? error));
const kv = new KvEngine({ storage, clock, onInternalError });
const auth = new AuthEngine({ storage, clock, cloud, env: {}, onInternalError });

async function load(prefix: string, streams: number, keys: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: streams }, async (_, stream) => {
      for (;;) {
        const value = next++;
        const path = `${prefix}s${stream}/k${value % keys}`;
        const response = await kv.handle({ method: 'POST', path: `data/${path}`, body: { data: { value } } });
        if (response.status !== 200)
          throw new Error(`load write failed: ${JSON.stringify(response)} ${faults.at(-1) ?? ''}`);
        const version = (response.body as { data: { version: number } }).data.version;
        process.send!({ ack: { path, version, value } } satisfies Ack);
      }
    }),
  );
}

process.on('message', async (message: WorkerMessage) => {
  try {
    if (message.type === 'kv' || message.type === 'auth') {
      const response = await (message.type === 'kv' ? kv : auth).handle(message.request);
      if (response.status >= 500)
        throw new Error(`${response.status}: ${faults.at(-1) ?? JSON.stringify(response.body)}`);
      process.send!({ id: message.id, response } satisfies WorkerReply);
      return;
    }
    if (message.type === 'instance') {
      const { region, ...instance } = message.instance;
      cloud.addInstance(instance, { region });
    } else if (message.type === 'clock') {
      clock.set(message.time);
    } else if (message.type === 'idle') {
      await auth.idle();
    } else if (message.type === 'load') {
      void load(message.prefix, message.streams, message.keys).catch((error: unknown) => {
        process.send!({ id: -1, error: String(error) } satisfies WorkerReply);
      });
    }
    process.send!({ id: message.id } satisfies WorkerReply);
  } catch (error) {
    process.send!({ id: message.id, error: String((error as Error)?.stack ?? error) } satisfies WorkerReply);
  }
});
process.send!({ id: 0 } satisfies WorkerReply);
