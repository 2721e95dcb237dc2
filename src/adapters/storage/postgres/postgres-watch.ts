import { randomUUID } from 'node:crypto';
import type { StorageWatch, StorageWatchHandlers } from '../../../ports/storage.js';

/**
 * PostgresStorage's `watch`: a trigger on the table sends the changed key with pg_notify, which PostgreSQL delivers
 * only when the writing transaction commits, to every session that LISTENs on the table's channel. The listening
 * session is a client of its own: postgres.js listens again on a new connection when that one drops and calls
 * `onlisten` again, which is a `reset` (notifications sent in between are lost, so the engine catches up by reading).
 *
 * postgres.js cannot see every loss: a connection that a network device stopped forwarding looks alive for as long as
 * TCP keepalive takes to give up (over ten minutes with Linux defaults), and a listen it retried and the server
 * refused is dropped without a word. So a heartbeat sends a probe through the table's server to this session; when
 * it does not come back in time, the session is replaced by a new one, and that is a reset too.
 */

/** The part of postgres.js the watch uses. */
export interface ListeningSql {
  unsafe(query: string, params?: unknown[]): Promise<unknown>;
  begin<T>(work: (sql: ListeningSql) => Promise<T>): Promise<T>;
  listen(
    channel: string,
    onnotify: (payload: string) => void,
    onlisten?: () => void,
  ): Promise<{ unlisten(): Promise<void> }>;
  end(options?: { timeout?: number }): Promise<void>;
}

/** What the watch asks of the storage's pool: the pool as it is at each call, since a failing one is replaced. */
export type PoolSql = Pick<ListeningSql, 'unsafe' | 'begin'>;

export interface WatchSettings {
  /** The table as configured (`name` or `schema.name`), already checked to be a plain identifier. */
  table: string;
  /** A new client with one connection, for the listening session alone. */
  listener: () => Promise<ListeningSql>;
  /** Milliseconds between probes; 0 turns the heartbeat off. A probe not back within the same time fails. */
  heartbeatMs: number;
}

export function channelOf(table: string): string {
  return `${table.replace('.', '_')}_changes`.slice(0, 63);
}

/** The channel of the probes: another channel, so that no probe is ever taken for a key. */
function probeChannelOf(table: string): string {
  return `${table.replace('.', '_')}_probes`.slice(0, 63);
}

function quoted(name: string): string {
  return name
    .split('.')
    .map((part) => `"${part}"`)
    .join('.');
}

/** Installs the notifying trigger (idempotent, serialized against concurrent installs). */
async function installTrigger(sql: PoolSql, table: string, channel: string): Promise<void> {
  const schema = table.includes('.') ? `${quoted(table.split('.')[0]!)}.` : '';
  const bare = table.includes('.') ? table.split('.')[1]! : table;
  const fn = `${schema}"${bare}_notify"`;
  await sql.begin(async (tx) => {
    await tx.unsafe(`SELECT pg_advisory_xact_lock(hashtext('${channel}'))`);
    await tx.unsafe(
      `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN PERFORM pg_notify('${channel}', CASE WHEN TG_OP = 'DELETE' THEN OLD.key ELSE NEW.key END); RETURN NULL; END $$`,
    );
    await tx.unsafe(
      `CREATE OR REPLACE TRIGGER "${bare}_notify" AFTER INSERT OR UPDATE OR DELETE ON ${quoted(table)} FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
    );
  });
}

/** Installs the trigger, then listens on a session of its own, kept alive by the heartbeat. `sql` sends the probes. */
export async function watchTable(
  sql: PoolSql,
  settings: WatchSettings,
  prefix: string,
  handlers: StorageWatchHandlers,
): Promise<StorageWatch> {
  const channel = channelOf(settings.table);
  const probeChannel = probeChannelOf(settings.table);
  await installTrigger(sql, settings.table, channel);

  /** Probes sent and not back yet, by payload. */
  const pending = new Map<string, () => void>();
  let closed = false;
  const open = async (): Promise<ListeningSql> => {
    const session = await settings.listener();
    try {
      let first = true;
      await session.listen(
        channel,
        (key) => {
          if (key.startsWith(prefix)) handlers.changed(key);
        },
        () => {
          if (first) first = false;
          else handlers.reset();
        },
      );
      await session.listen(probeChannel, (payload) => pending.get(payload)?.());
      return session;
    } catch (error) {
      await session.end({ timeout: 0 });
      throw error;
    }
  };
  let session = await open();

  /**
   * Whether a probe sent now comes back to the session within `ms`. The clock runs from the start, sending included: a
   * send stuck on a dead connection of the pool says as little about the session as a probe that never arrives. A
   * send the server refuses throws (nothing is known then, and the next beat tries again).
   */
  const probe = async (ms: number): Promise<boolean> => {
    const payload = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const back = new Promise<boolean>((resolve, reject) => {
      pending.set(payload, () => resolve(true));
      // Unreferenced, like the heartbeat: a probe in flight does not keep the process alive.
      timer = setTimeout(() => resolve(false), ms).unref();
      sql.unsafe('SELECT pg_notify($1, $2)', [probeChannel, payload]).catch(reject);
    });
    try {
      return await back;
    } finally {
      clearTimeout(timer);
      pending.delete(payload);
    }
  };

  let beating = false;
  const beat = async (): Promise<void> => {
    if (beating || closed) return;
    beating = true;
    try {
      if (await probe(settings.heartbeatMs)) return;
      const stale = session;
      session = await open();
      void stale.end({ timeout: 0 }).catch(() => undefined);
      if (closed) await session.end({ timeout: 0 });
      else handlers.reset();
    } catch {
      // The server cannot be reached to send the probe or to listen: the next beat tries again.
    } finally {
      beating = false;
    }
  };
  const heartbeat = settings.heartbeatMs > 0 ? setInterval(() => void beat(), settings.heartbeatMs) : undefined;
  heartbeat?.unref();

  return {
    close: async () => {
      closed = true;
      clearInterval(heartbeat);
      await session.end({ timeout: 0 });
    },
  };
}
