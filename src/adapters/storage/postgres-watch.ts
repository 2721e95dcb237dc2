import type { StorageWatch, StorageWatchHandlers } from '../../ports/storage.js';

/**
 * PostgresStorage's `watch`: a trigger on the table sends the changed key with pg_notify, which PostgreSQL delivers
 * only when the writing transaction commits, to every session that LISTENs on the table's channel. postgres.js keeps
 * the listening session on a connection of its own and, when that connection drops, listens again on a new one and
 * calls `onlisten` again: that second call is the `reset` after which the engine catches up by reading.
 */

/** The part of postgres.js the watch uses. */
export interface ListeningSql {
  unsafe(query: string): Promise<unknown>;
  begin<T>(work: (sql: ListeningSql) => Promise<T>): Promise<T>;
  listen(channel: string, onnotify: (payload: string) => void, onlisten?: () => void): Promise<{ unlisten(): Promise<void> }>;
}

/** `table` is the bare name as configured (`name` or `schema.name`), already checked to be a plain identifier. */
export function channelOf(table: string): string {
  return `${table.replace('.', '_')}_changes`.slice(0, 63);
}

function quoted(name: string): string {
  return name.split('.').map((part) => `"${part}"`).join('.');
}

/** Installs the notifying trigger (idempotent, serialized against concurrent installs), then listens. */
export async function watchTable(sql: ListeningSql, table: string, prefix: string, handlers: StorageWatchHandlers): Promise<StorageWatch> {
  const channel = channelOf(table);
  const schema = table.includes('.') ? `${quoted(table.split('.')[0]!)}.` : '';
  const bare = table.includes('.') ? table.split('.')[1]! : table;
  const fn = `${schema}"${bare}_notify"`;
  await sql.begin(async (tx) => {
    await tx.unsafe(`SELECT pg_advisory_xact_lock(hashtext('${channel}'))`);
    await tx.unsafe(
      `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN PERFORM pg_notify('${channel}', CASE WHEN TG_OP = 'DELETE' THEN OLD.key ELSE NEW.key END); RETURN NULL; END $$`,
    );
    await tx.unsafe(`CREATE OR REPLACE TRIGGER "${bare}_notify" AFTER INSERT OR UPDATE OR DELETE ON ${quoted(table)} FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
  });
  const listening = await sql.listen(
    channel,
    (key) => {
      if (key.startsWith(prefix)) handlers.changed(key);
    },
    () => handlers.reset(),
  );
  return { close: () => listening.unlisten() };
}
