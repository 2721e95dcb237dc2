// Two `strongroom server` processes over one PostgreSQL: changes written through both are delivered once each, by
// whichever process holds the deliverer's lease; when it is killed (SIGKILL), the other delivers what follows.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres } from '../../support/postgres.js';
import { dataDir, request } from '../harness.js';
import { killSpawned, spawnServer, type SpawnedServer } from '../spawned.js';
import { startReceiver } from '../webhooks/receiver.js';

const ROOT = 'sr.webhooks-postgres';
const SECRET = 'whsec-postgres-9c8d7e6f';
afterEach(() => killSpawned());

const send = (server: SpawnedServer, options: Parameters<typeof request>[1]) =>
  request(server.url, { token: ROOT, ...options });
const write = (server: SpawnedServer, path: string) =>
  send(server, { method: 'POST', path: `/v1/secret/data/${path}`, body: { data: { v: path } } });

describe.runIf(postgresAvailable())('webhooks from two processes over one PostgreSQL', () => {
  it('deliver each change once, and go on from the survivor when one is killed', async () => {
    const postgres = await startPostgres();
    const receiver = await startReceiver(SECRET);
    try {
      const env = {
        STRONGROOM_STORAGE_URL: postgres.url,
        STRONGROOM_ROOT_KEY: randomBytes(32).toString('base64'),
        STRONGROOM_ROOT_TOKEN: ROOT,
        STRONGROOM_WEBHOOK_ALLOW: '127.0.0.1',
      };
      const [a, b] = (await Promise.all([0, 1].map(() => spawnServer({ ...env, STRONGROOM_DATA_DIR: dataDir() })))) as [
        SpawnedServer,
        SpawnedServer,
      ];
      const hook = { url: receiver.url, mount: 'secret/', secret: SECRET };
      expect((await send(a, { method: 'POST', path: '/v1/sys/webhooks/all', body: hook })).status).toBe(204);
      const paths = Array.from({ length: 10 }, (_, index) => `k${index}`);
      for (const [index, path] of paths.entries()) expect((await write(index % 2 ? b : a, path)).status).toBe(200);
      await receiver.received(10);
      // Time for a second deliverer, were there one, to send its copies.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(receiver.deliveries.map((delivery) => delivery.body.path).sort()).toEqual(paths);
      expect(new Set(receiver.deliveries.map((delivery) => delivery.id)).size).toBe(10);
      expect(receiver.deliveries.every((delivery) => delivery.verified)).toBe(true);

      // The holder of the deliverer's lease is killed; the survivor takes the lease once it lapses.
      const holders = [a, b].filter((server) => server.log().includes('took the webhook deliverer lease'));
      expect(holders).toHaveLength(1);
      const [holder, survivor] = holders[0] === a ? [a, b] : [b, a];
      holder.child.kill('SIGKILL');
      await holder.exited;
      for (const path of ['after-1', 'after-2']) expect((await write(survivor, path)).status).toBe(200);
      await receiver.received(12, 25_000);
      const delivered = new Set(receiver.deliveries.map((delivery) => delivery.body.path));
      expect(delivered).toEqual(new Set([...paths, 'after-1', 'after-2']));
      expect(survivor.log()).toContain('took the webhook deliverer lease');
    } finally {
      killSpawned();
      await receiver.close();
      await postgres.stop();
    }
  }, 60_000);
});
