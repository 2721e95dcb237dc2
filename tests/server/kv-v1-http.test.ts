// KvV1Engine over real HTTP, behind the engine handler (Vault's wire format): the requests hvac's kv.v1 client sends in
// hvac's own test_kv_v1, and the answers it expects.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptListMethod } from '../../src/adapters/http/list-method.js';
import { KvV1Engine } from '../../src/kv/index.js';
import { createEngineHandler } from '../../src/server/index.js';
import { testStorage } from '../support/test-storage.js';
import { request, type RawRequest } from './harness.js';

let server: http.Server;
let url: string;
const send = (options: RawRequest) => request(url, { ...options, path: `/v1/kvv1/${options.path}` });

beforeAll(async () => {
  const engine = new KvV1Engine({ storage: testStorage() });
  // node:http knows no LIST method: the shim the server uses lets it reach the handler, as docs/server.md shows.
  server = acceptListMethod(http.createServer(createEngineHandler({ mount: 'kvv1/', engine })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('KV version 1 over HTTP, as hvac test_kv_v1 drives it', () => {
  it('create_or_update_secret: POST then PUT answer 204; read_secret answers the data with a lease_duration', async () => {
    // hvac reads first to choose the method: a missing secret is its InvalidPath, a 404.
    const missing = await send({ path: 'hvac' });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ errors: [] });
    expect((await send({ method: 'POST', path: 'hvac', body: { pssst: 'hi' } })).status).toBe(204);
    expect((await send({ method: 'PUT', path: 'hvac', body: { pssst: 'hi' } })).status).toBe(204);
    const read = await send({ path: 'hvac' });
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({
      lease_id: '',
      renewable: false,
      lease_duration: 2_764_800,
      data: { pssst: 'hi' },
      wrap_info: null,
      warnings: null,
      auth: null,
    });
    await send({ method: 'POST', path: 'leased', body: { pssst: 'hi', ttl: '30m' } });
    expect((await send({ path: 'leased' })).json.lease_duration).toBe(1800);
  });

  it('list_secrets: LIST and GET ?list=true answer the keys; an empty folder is a 404', async () => {
    expect((await send({ method: 'POST', path: 'hvac/top-secret', body: { pssst: 'hi' } })).status).toBe(204);
    const listed = await send({ method: 'LIST', path: 'hvac' });
    expect(listed.status).toBe(200);
    expect(listed.json.data).toEqual({ keys: ['top-secret'] });
    expect((await send({ path: 'hvac/?list=true' })).json.data).toEqual({ keys: ['top-secret'] });
    const none = await send({ method: 'LIST', path: 'nothing-here' });
    expect(none.status).toBe(404);
    expect(none.json).toEqual({ errors: [] });
  });

  it('delete_secret answers 204, for a missing secret too', async () => {
    await send({ method: 'POST', path: 'gone/top-secret', body: { pssst: 'hi' } });
    expect((await send({ method: 'DELETE', path: 'gone/top-secret' })).status).toBe(204);
    expect((await send({ path: 'gone/top-secret' })).status).toBe(404);
    expect((await send({ method: 'DELETE', path: 'gone/no-secret-here' })).status).toBe(204);
  });

  it('bad input is a clear 400', async () => {
    const empty = await send({ method: 'POST', path: 'k', body: {} });
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual({ errors: ['missing data fields'] });
    expect((await send({ method: 'POST', path: 'k', rawBody: '[1,2]' })).status).toBe(400);
    expect((await send({ method: 'POST', path: 'k', rawBody: '{"a":' })).status).toBe(400);
  });
});
