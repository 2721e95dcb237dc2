// destroy_version_after through real HTTP: set on a mount's config and on key metadata, answered as Vault answers a
// destroyed version once past, and swept from storage by the server's own periodic timer on every KV mount.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { testStorage, type TestStorage } from '../support/test-storage.js';
import { request, startServer, type RawRequest, type Started } from './harness.js';

const HOUR = 3600;

describe('destroy_version_after over HTTP', () => {
  const clock = new ManualClock('2026-03-01T12:00:00Z');
  const storage: TestStorage = testStorage();
  let server: Started;
  const send = (options: RawRequest) => request(server.url, { token: server.rootToken, ...options });

  beforeAll(async () => {
    server = await startServer({ storage, clock, periodicIntervalMs: 20 });
    expect((await send({ method: 'POST', path: '/v1/sys/mounts/team', body: { type: 'kv-v2' } })).status).toBe(204);
  });
  afterAll(() => server?.stop());

  /** The blobs of version data the mount at `path` holds in storage. */
  async function blobsOf(path: string): Promise<string[]> {
    const mounts = await send({ method: 'GET', path: '/v1/sys/mounts' });
    const prefix = path === 'secret/' ? 'secret/' : `logical/${mounts.json.data[path].uuid as string}/`;
    const folders = await storage.list(`${prefix}versions/`);
    return (await Promise.all(folders.map((folder) => storage.list(`${prefix}versions/${folder}`)))).flat();
  }

  it('config and metadata take it, and bad input is a 400', async () => {
    expect(
      (await send({ method: 'POST', path: '/v1/team/config', body: { destroy_version_after: '2h' } })).status,
    ).toBe(204);
    expect((await send({ method: 'GET', path: '/v1/team/config' })).json.data.destroy_version_after).toBe('2h0m0s');
    const bad = await send({ method: 'POST', path: '/v1/team/metadata/app', body: { destroy_version_after: 'soon' } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.join(' ')).toContain('destroy_version_after');
    const set = await send({ method: 'POST', path: '/v1/team/metadata/app', body: { destroy_version_after: '1h' } });
    expect(set.status).toBe(204);
    expect((await send({ method: 'GET', path: '/v1/team/metadata/app' })).json.data.destroy_version_after).toBe(
      '1h0m0s',
    );
  });

  it('a version past its time answers destroyed, and the periodic sweep removes its data from every KV mount', async () => {
    const written = await send({ method: 'POST', path: '/v1/team/data/app', body: { data: { password: 'hunter2' } } });
    expect(written.status).toBe(200);
    await send({ method: 'POST', path: '/v1/secret/metadata/own', body: { destroy_version_after: '1h' } });
    await send({ method: 'POST', path: '/v1/secret/data/own', body: { data: { token: 'abc' } } });
    expect((await send({ method: 'GET', path: '/v1/team/data/app' })).json.data.data).toEqual({ password: 'hunter2' });
    expect(await blobsOf('team/')).toHaveLength(1);
    expect(await blobsOf('secret/')).toHaveLength(1);

    clock.advance(HOUR);
    const read = await send({ method: 'GET', path: '/v1/team/data/app' });
    expect(read.status).toBe(404);
    expect(read.json.data).toMatchObject({ data: null, metadata: { destroyed: true, version: 1 } });
    expect(read.text).not.toContain('hunter2');
    const metadata = await send({ method: 'GET', path: '/v1/team/metadata/app' });
    expect(metadata.json.data.versions['1'].destroyed).toBe(true);

    await vi.waitFor(async () => expect([...(await blobsOf('team/')), ...(await blobsOf('secret/'))]).toEqual([]), {
      timeout: 10_000,
      interval: 20,
    });
    expect((await send({ method: 'GET', path: '/v1/secret/data/own' })).json.data.metadata.destroyed).toBe(true);
  });
});
