import { describe, expect, it } from 'vitest';
import { watchTable, type ListeningSql } from '../../../src/adapters/storage/postgres/postgres-watch.js';
import { PostgresStorage } from '../../../src/postgres.js';

/**
 * A LISTEN/NOTIFY server in memory, for the failures a real one cannot be made to show on demand: a session that
 * stops receiving without any error, and a session the server refuses to let listen.
 */
class FakeServer {
  readonly sessions: FakeSession[] = [];
  /** How many of the next LISTEN statements the server refuses. */
  refuseListen = 0;

  notify(channel: string, payload: string): void {
    for (const session of this.sessions)
      if (session.receiving && !session.ended) session.channels.get(channel)?.(payload);
  }

  sql(): ListeningSql {
    return {
      unsafe: async (query: string, params?: unknown[]) => {
        if (query.startsWith('SELECT pg_notify')) this.notify(params![0] as string, params![1] as string);
        return [];
      },
      begin: async (work) => work(this.sql()),
      listen: async () => {
        throw new Error('the pool does not listen');
      },
      end: async () => undefined,
    };
  }

  session(): ListeningSql {
    const session = new FakeSession(this);
    this.sessions.push(session);
    return session;
  }
}

class FakeSession implements ListeningSql {
  readonly channels = new Map<string, (payload: string) => void>();
  receiving = true;
  ended = false;
  constructor(private readonly server: FakeServer) {}
  unsafe = async () => [];
  begin = async <T>(work: (sql: ListeningSql) => Promise<T>): Promise<T> => work(this);
  async listen(channel: string, onnotify: (payload: string) => void, onlisten?: () => void) {
    if (this.server.refuseListen > 0) {
      this.server.refuseListen--;
      throw new Error('cannot execute LISTEN during recovery');
    }
    this.channels.set(channel, onnotify);
    onlisten?.();
    return { unlisten: async () => void this.channels.delete(channel) };
  }
  async end() {
    this.ended = true;
  }
}

async function until(done: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the heartbeat of a PostgreSQL change watch', () => {
  it('replaces a session that stopped receiving, retries while listening is refused, then resets once', async () => {
    const server = new FakeServer();
    const changed: string[] = [];
    let resets = 0;
    const watch = await watchTable(
      server.sql(),
      { table: 'strongroom', listener: async () => server.session(), heartbeatMs: 20 },
      'kv/',
      {
        changed: (key) => changed.push(key),
        reset: () => resets++,
      },
    );
    try {
      server.notify('strongroom_changes', 'kv/a');
      server.notify('strongroom_changes', 'other/b');
      expect(changed).toEqual(['kv/a']);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Healthy probes replace nothing and reset nothing.
      expect(server.sessions).toHaveLength(1);
      expect(resets).toBe(0);

      server.refuseListen = 2;
      server.sessions[0]!.receiving = false;
      await until(() => resets === 1);
      // Two refused sessions were ended, the third listens; the silent one was ended too.
      expect(server.sessions).toHaveLength(4);
      expect(server.sessions.slice(0, 3).every((session) => session.ended)).toBe(true);
      server.notify('strongroom_changes', 'kv/c');
      expect(changed).toEqual(['kv/a', 'kv/c']);
    } finally {
      await watch.close();
    }
    expect(server.sessions.every((session) => session.ended)).toBe(true);
  });

  it('with the heartbeat off, sends no probes', async () => {
    const server = new FakeServer();
    let probes = 0;
    const sql = server.sql();
    const counting: ListeningSql = {
      ...sql,
      unsafe: async (query, params) => (query.startsWith('SELECT pg_notify') && probes++, sql.unsafe(query, params)),
    };
    const watch = await watchTable(
      counting,
      { table: 'strongroom', listener: async () => server.session(), heartbeatMs: 0 },
      '',
      { changed: () => undefined, reset: () => undefined },
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    await watch.close();
    expect(probes).toBe(0);
  });

  it('refuses a heartbeat interval that is negative, not a number or longer than an hour', () => {
    for (const watchHeartbeatSeconds of [-1, Number.NaN, 3601]) {
      expect(() => new PostgresStorage({ connectionString: 'postgres://localhost/x', watchHeartbeatSeconds })).toThrow(
        'watchHeartbeatSeconds must be between 0 and 3600',
      );
    }
    expect(
      () => new PostgresStorage({ connectionString: 'postgres://localhost/x', watchHeartbeatSeconds: 0 }),
    ).not.toThrow();
  });
});
