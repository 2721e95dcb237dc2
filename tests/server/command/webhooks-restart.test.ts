// Webhooks through the real `strongroom server` over its SQLite file: the process is killed (SIGKILL) while a delivery
// is in flight and started again; every change is then delivered, signed, and the only repeat is the delivery the kill
// cut short, as "at least once" allows. A change made after the restart, before the new process takes over the
// deliverer's lease from the dead one, is delivered too.
import { afterEach, describe, expect, it } from 'vitest';
import { dataDir, request } from '../harness.js';
import { killSpawned, runCommand, spawnServer, type SpawnedServer } from '../spawned.js';
import { startReceiver } from '../webhooks/receiver.js';

const ROOT = 'sr.webhooks-restart';
const SECRET = 'whsec-restart-5e6f7a8b';
afterEach(() => killSpawned());

const send = (server: SpawnedServer, options: Parameters<typeof request>[1]) =>
  request(server.url, { token: ROOT, ...options });
const write = (server: SpawnedServer, path: string) =>
  send(server, { method: 'POST', path: `/v1/secret/data/${path}`, body: { data: { password: `value-of-${path}` } } });

describe('webhooks across a SIGKILL of strongroom server', () => {
  it('deliver every change after the restart, repeating only the one in flight', async () => {
    const receiver = await startReceiver(SECRET, 'hang');
    const env = { STRONGROOM_DATA_DIR: dataDir(), STRONGROOM_ROOT_TOKEN: ROOT, STRONGROOM_WEBHOOK_ALLOW: '127.0.0.1' };
    try {
      const first = await spawnServer(env);
      expect((await write(first, 'app/before')).status).toBe(200);
      const hook = { url: receiver.url, mount: 'secret/', prefix: 'app/', secret: SECRET };
      expect((await send(first, { method: 'POST', path: '/v1/sys/webhooks/app', body: hook })).status).toBe(204);
      for (const path of ['app/a', 'app/b', 'app/c', 'app/d']) expect((await write(first, path)).status).toBe(200);
      const [inFlight] = await receiver.received(1);
      first.child.kill('SIGKILL');
      await first.exited;
      for (const held of receiver.held.splice(0)) held.destroy();
      receiver.behaviour = 'ok';

      const second = await spawnServer(env);
      expect((await write(second, 'app/e')).status).toBe(200);
      await receiver.received(6, 25_000);
      const got = receiver.deliveries;
      expect(got.every((delivery) => delivery.verified)).toBe(true);
      const byId = new Map(got.map((delivery) => [delivery.id, delivery.body]));
      expect([...byId.values()].map((body) => `${body.path}@${body.version}:${body.operation}`).sort()).toEqual([
        'app/a@1:write',
        'app/b@1:write',
        'app/c@1:write',
        'app/d@1:write',
        'app/e@1:write',
      ]);
      const repeated = [...byId.keys()].filter((id) => got.filter((delivery) => delivery.id === id).length > 1);
      expect(repeated).toEqual([inFlight!.id]);
      expect(got.map((delivery) => delivery.raw).join('')).not.toContain('value-of');
      expect(second.log()).not.toContain(SECRET);
      expect(await second.stop()).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 45_000);

  it('refuses a bad STRONGROOM_WEBHOOK_ALLOW with a clear message and exit 1', async () => {
    const finished = await runCommand(['server'], { STRONGROOM_WEBHOOK_ALLOW: '127.0.0.1,not a host!' });
    expect(finished.code).toBe(1);
    expect(finished.stderr.trim()).toBe(
      'strongroom: STRONGROOM_WEBHOOK_ALLOW: "not a host!" is neither a host name nor an address or CIDR',
    );
  });
});
