// POST <mount>/read-many through real HTTP, tokens and ACL policies: each item is authorised as a read of
// data/<path>, and a refused item answers the same whether the key exists or not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type RawRequest, type Started } from './harness.js';

describe('POST <mount>/read-many over HTTP', () => {
  let server: Started;
  let oneToken: string;
  let nothingToken: string;
  const send = (options: RawRequest) => request(server.url, { token: server.rootToken, ...options });
  const readMany = (token: string | undefined, body: unknown, mount = 'secret') =>
    request(server.url, { method: 'POST', path: `/v1/${mount}/read-many`, token, body });

  async function tokenWith(policies: string[]): Promise<string> {
    const made = await send({ method: 'POST', path: '/v1/auth/token/create', body: { policies, no_parent: true } });
    expect(made.status).toBe(200);
    return made.json.auth.client_token as string;
  }

  beforeAll(async () => {
    server = await startServer();
    const write = async (path: string, data: Record<string, unknown>) =>
      expect((await send({ method: 'POST', path: `/v1/${path}`, body: { data } })).status).toBe(200);
    await write('secret/data/app/db', { password: 'one' });
    await write('secret/data/app/db', { password: 'two' });
    await write('secret/data/app/api', { key: 'k1' });
    await write('secret/data/old/deleted', { a: 1 });
    await send({ method: 'DELETE', path: '/v1/secret/data/old/deleted' });
    await write('secret/data/old/destroyed', { a: 1 });
    await send({ method: 'PUT', path: '/v1/secret/destroy/old/destroyed', body: { versions: [1] } });
    expect((await send({ method: 'POST', path: '/v1/sys/mounts/team', body: { type: 'kv-v2' } })).status).toBe(204);
    await write('team/data/app/db', { password: 'team' });
    const policy =
      'path "secret/data/app/db" { capabilities = ["read"] }\npath "team/data/*" { capabilities = ["read"] }';
    expect((await send({ method: 'PUT', path: '/v1/sys/policies/acl/one', body: { policy } })).status).toBe(204);
    oneToken = await tokenWith(['one']);
    nothingToken = await tokenWith(['default']);
  });
  afterAll(() => server?.stop());

  it('answers each item as its GET data/<path> does, in request order', async () => {
    const items = [
      { path: 'app/api' },
      { path: 'app/db', version: 1 },
      { path: 'old/deleted' },
      { path: 'old/destroyed' },
      { path: 'missing' },
    ];
    const answer = await readMany(server.rootToken, { requests: items });
    expect(answer.status).toBe(200);
    const { responses } = answer.json.data;
    for (const [index, item] of items.entries()) {
      const query = item.version === undefined ? '' : `?version=${item.version}`;
      const get = await send({ method: 'GET', path: `/v1/secret/data/${item.path}${query}` });
      const expected =
        get.json.data === undefined || get.json.data === null ? { errors: get.json.errors } : { data: get.json.data };
      expect(responses[index]).toEqual({ path: item.path, status: get.status, ...expected });
    }
    expect(responses[1].data.data).toEqual({ password: 'one' });
    expect(responses[3]).toMatchObject({ status: 404, data: { metadata: { destroyed: true } } });
    expect(responses[4]).toEqual({ path: 'missing', status: 404, errors: [] });
  });

  it('a token that may read one of two paths: the other is a 403 that reveals nothing, on any mount', async () => {
    const body = { requests: [{ path: 'app/db' }, { path: 'app/api' }, { path: 'no/such/key' }] };
    const answer = await readMany(oneToken, body);
    expect(answer.status).toBe(200);
    const [allowed, existing, missing] = answer.json.data.responses;
    expect(allowed).toMatchObject({ path: 'app/db', status: 200, data: { data: { password: 'two' } } });
    expect(existing).toEqual({ path: 'app/api', status: 403, errors: ['permission denied'] });
    expect({ ...missing, path: 'app/api' }).toEqual(existing);
    expect(answer.text).not.toContain('k1');
    const team = await readMany(oneToken, { requests: [{ path: 'app/db' }] }, 'team');
    expect(team.json.data.responses[0].data.data).toEqual({ password: 'team' });
  });

  it('a token with no read anywhere, or no token, gets the plain 403, whether the keys exist or not', async () => {
    const existing = await readMany(nothingToken, { requests: [{ path: 'app/db' }, { path: 'app/api' }] });
    const missing = await readMany(nothingToken, { requests: [{ path: 'no/such' }] });
    const anonymous = await readMany(undefined, { requests: [{ path: 'app/db' }] });
    for (const answer of [existing, missing, anonymous]) {
      expect(answer.status).toBe(403);
      expect(answer.json).toEqual({ errors: ['permission denied'] });
    }
  });

  it.each([
    ['101 items', { requests: Array.from({ length: 101 }, () => ({ path: 'app/db' })) }, 'at most 100'],
    [
      'a version that is no integer',
      { requests: [{ path: 'app/db' }, { path: 'app/db', version: 'x' }] },
      'requests[1]',
    ],
    ['an item without a path', { requests: [{}] }, 'requests[0]'],
    ['no requests', {}, 'missing requests'],
  ])('refuses %s with a 400, before reading anything', async (_name, body, fragment) => {
    for (const token of [server.rootToken, oneToken]) {
      const answer = await readMany(token, body);
      expect(answer.status).toBe(400);
      expect(answer.json.errors.join(' ')).toContain(fragment);
    }
  });
});
