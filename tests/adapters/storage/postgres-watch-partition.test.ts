import { describe, it } from 'vitest';
import { PostgresStorage } from '../../../src/postgres.js';
import { postgresAvailable } from '../../support/postgres.js';
import { usePostgresBehindProxy } from '../../support/tcp-proxy.js';

const available = postgresAvailable();

/** Waits until `done()` holds, checking every 20 ms, for at most `ms`. */
async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!available)('PostgresStorage.watch across outages', { timeout: 60_000 }, () => {
  const pg = usePostgresBehindProxy();

  /** Watches through the proxy, writes directly; `outage` cuts the watcher off for longer than its connect timeout. */
  async function watchAcross(outage: { begin(): Promise<void>; end(): Promise<void> }): Promise<void> {
    const watcher = new PostgresStorage({
      connectionString: `postgres://postgres@127.0.0.1:${pg.proxy.port}/postgres`,
      connectTimeoutSeconds: 1,
      watchHeartbeatSeconds: 0.5,
    });
    const writer = new PostgresStorage({ connectionString: pg.server.url });
    const changed: string[] = [];
    let resets = 0;
    const watch = await watcher.watch('', { changed: (key) => changed.push(key), reset: () => resets++ });
    try {
      const resetsAtStart = resets;
      await writer.put('before', new Uint8Array([1]));
      await until(() => changed.includes('before'), 5_000);
      changed.length = 0;

      await outage.begin();
      // Several connect timeouts pass while the listening session cannot be re-established.
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      await outage.end();

      // The session comes back by itself and says that notifications may have been missed; then they flow again.
      await until(() => resets > resetsAtStart, 15_000);
      await writer.put('after', new Uint8Array([3]));
      await until(() => changed.includes('after'), 5_000);
    } finally {
      await watch.close();
      await watcher.close();
      await writer.close();
    }
  }

  it('listens again after a network partition that outlasts the connect timeout (connections black-holed), then resets', async () => {
    await watchAcross({ begin: async () => pg.proxy.partition(), end: async () => pg.proxy.heal() });
  });

  it('listens again after the server was down (connections refused) for longer than the connect timeout, then resets', async () => {
    await watchAcross({ begin: () => pg.server.halt(), end: () => pg.server.start() });
  });

  it('replaces a listening session that stopped receiving while its connection still looks open, then resets', async () => {
    // No close and no error reach the driver: only the heartbeat's probe, which does not come back, shows the loss.
    await watchAcross({ begin: async () => pg.proxy.freeze(), end: async () => undefined });
  });
});
