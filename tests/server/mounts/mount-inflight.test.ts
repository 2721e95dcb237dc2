// A mount moved or removed while requests run: a request in flight finishes on the engine it began on, and what it
// writes into a removed mount never reappears in a mount enabled later at the same path.
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { PausedStorage, type Call } from '../../support/paused-storage.js';
import { request, startServer, type Started } from '../harness.js';

const ROOT = 'sr.inflight';
let started: Started | undefined;
afterEach(() => started?.stop());

async function serve() {
  const storage = new PausedStorage(new MemoryStorage());
  started = await startServer({ storage, rootToken: ROOT });
  const url = started.url;
  const send = (options: Parameters<typeof request>[1]) => request(url, { token: ROOT, ...options });
  expect((await send({ method: 'POST', path: '/v1/sys/mounts/busy', body: { type: 'kv-v2' } })).status).toBe(204);
  return { storage, send };
}
/** A call that touches the data of a mount made over the API (kept by its uuid, below logical/). */
const mountData = (name: Call['name']) => (call: Call) =>
  call.name === name && call.keys.some((key) => key.startsWith('logical/'));

describe('a mount changed while requests run', () => {
  it('lets a read in flight finish on its engine while the mount moves', async () => {
    const { storage, send } = await serve();
    await send({ method: 'POST', path: '/v1/busy/data/a', body: { data: { n: 1 } } });
    const paused = storage.pause(mountData('get'));
    const reading = send({ path: '/v1/busy/data/a' });
    await paused.reached;
    expect((await send({ method: 'POST', path: '/v1/sys/remount', body: { from: 'busy', to: 'moved' } })).status).toBe(
      200,
    );
    paused.resume();
    expect((await reading).json.data.data).toEqual({ n: 1 });
    expect((await send({ path: '/v1/moved/data/a' })).json.data.data).toEqual({ n: 1 });
    expect((await send({ path: '/v1/busy/data/a' })).status).toBe(404);
  });

  it('never shows a write that was in flight when its mount was removed in a mount enabled later', async () => {
    const { storage, send } = await serve();
    const paused = storage.pause(mountData('commit'));
    const writing = send({ method: 'POST', path: '/v1/busy/data/late', body: { data: { n: 2 } } });
    await paused.reached;
    expect((await send({ method: 'DELETE', path: '/v1/sys/mounts/busy' })).status).toBe(204);
    paused.resume();
    // Answered by the engine it began on, which commits into the removed mount's own prefix.
    expect((await writing).status).toBe(200);
    expect((await send({ path: '/v1/busy/data/late' })).status).toBe(404);
    expect((await send({ method: 'POST', path: '/v1/sys/mounts/busy', body: { type: 'kv-v2' } })).status).toBe(204);
    expect((await send({ path: '/v1/busy/data/late' })).status).toBe(404);
    expect((await send({ method: 'LIST', path: '/v1/busy/metadata/' })).status).toBe(404);
  });
});
