// Policies' allowed_parameters, denied_parameters, required_parameters and wrapping bounds over real HTTP: a request
// that breaks them is refused with 403, as Vault refuses it, and only on the request's own path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type RawRequest, type Started } from '../harness.js';
import { tokenWithPolicy } from '../policy-token.js';

let started: Started;
const ROOT = 'sr.parameter-constraints-root';
const send = (options: RawRequest) => request(started.url, options);
const asRoot = (options: RawRequest) => send({ token: ROOT, ...options });

const tokenWith = (name: string, policy: string) => tokenWithPolicy(asRoot, name, policy);

beforeAll(async () => {
  started = await startServer({ rootToken: ROOT });
}, 60_000);

afterAll(() => started?.stop());

describe('parameter constraints on a KV v2 mount', () => {
  it("weighs the body's top-level members, as Vault does: KV v2 sends `data` and `options`", async () => {
    const token = await tokenWith(
      'no-cas',
      'path "secret/data/app/*" { capabilities = ["create", "update", "read"]  denied_parameters = { "options" = [] } }',
    );
    const plain = await send({ method: 'POST', path: '/v1/secret/data/app/db', token, body: { data: { a: '1' } } });
    expect(plain.status).toBe(200);
    const withOptions = await send({
      method: 'POST',
      path: '/v1/secret/data/app/db',
      token,
      body: { data: { a: '2' }, options: { cas: 1 } },
    });
    expect(withOptions.status).toBe(403);
    expect(withOptions.json).toEqual({ errors: ['permission denied'] });
    // Nothing was written by the refused request.
    expect((await asRoot({ path: '/v1/secret/data/app/db' })).json.data.data).toEqual({ a: '1' });
  });

  it('compares typed values: an object value must equal the one the policy lists', async () => {
    const token = await tokenWith(
      'blue-only',
      'path "secret/data/colour" { capabilities = ["create", "update"]  allowed_parameters = { "data" = [{ "colour" = "blue" }] } }',
    );
    const blue = await send({
      method: 'POST',
      path: '/v1/secret/data/colour',
      token,
      body: { data: { colour: 'blue' } },
    });
    expect(blue.status).toBe(200);
    const red = await send({
      method: 'POST',
      path: '/v1/secret/data/colour',
      token,
      body: { data: { colour: 'red' } },
    });
    expect(red.status).toBe(403);
  });

  it("takes a read's parameters from its query, and leaves a listing of the folder alone", async () => {
    await asRoot({ method: 'POST', path: '/v1/secret/data/pinned/key', body: { data: { v: 1 } } });
    const token = await tokenWith(
      'pinned',
      [
        'path "secret/data/pinned/*" { capabilities = ["read"]  required_parameters = ["version"] }',
        'path "secret/metadata/pinned/*" { capabilities = ["list"]  required_parameters = ["version"] }',
      ].join('\n'),
    );
    expect((await send({ path: '/v1/secret/data/pinned/key', token })).status).toBe(403);
    const pinned = await send({ path: '/v1/secret/data/pinned/key?version=1', token });
    expect(pinned.status).toBe(200);
    expect(pinned.json.data.data).toEqual({ v: 1 });
    // Vault checks no parameters on a LIST.
    const listed = await send({ method: 'LIST', path: '/v1/secret/metadata/pinned/', token });
    expect(listed.status).toBe(200);
    expect(listed.json.data.keys).toEqual(['key']);
  });

  it('refuses a request on a path whose rule sets wrapping bounds when it is not wrapped', async () => {
    const token = await tokenWith(
      'wrap-only',
      'path "secret/data/wrapped" { capabilities = ["read", "create", "update"]  max_wrapping_ttl = "5m" }',
    );
    expect((await send({ path: '/v1/secret/data/wrapped', token })).status).toBe(403);
  });
});

describe("parameter constraints on the server's own routes", () => {
  const putPolicy = (token: string, name: string, body: Record<string, unknown>) =>
    send({ method: 'PUT', path: `/v1/sys/policies/acl/${name}`, token, body });

  it('refuses a policy write whose text a denied value glob matches', async () => {
    const token = await tokenWith(
      'policy-writer',
      'path "sys/policies/acl/*" { capabilities = ["create", "update"]  denied_parameters = { "policy" = ["*sys/*"] } }',
    );
    const harmless = await putPolicy(token, 'reader', { policy: 'path "secret/data/*" { capabilities = ["read"] }' });
    expect(harmless.status).toBe(204);
    const escalating = await putPolicy(token, 'escalate', { policy: 'path "sys/*" { capabilities = ["sudo"] }' });
    expect(escalating.status).toBe(403);
    expect((await asRoot({ path: '/v1/sys/policies/acl/escalate' })).status).toBe(404);
  });

  it('a parameter name is matched case-insensitively, as in Vault', async () => {
    const token = await tokenWith(
      'no-policy-field',
      'path "sys/policies/acl/*" { capabilities = ["create", "update"]  denied_parameters = { "POLICY" = [] } }',
    );
    const refused = await putPolicy(token, 'any', { Policy: 'path "a" { capabilities = ["read"] }' });
    expect(refused.status).toBe(403);
  });
});
