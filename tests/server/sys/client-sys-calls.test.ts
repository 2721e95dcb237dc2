// The sys/ calls Vault clients make besides secrets: what hvac 2.4.0's system_backend tests test_policy.py,
// test_policies.py, test_health.py and test_init.py send and assert, request for request, plus sys/leader, and
// disables of what is not there (204, as in Vault). (seal-status's fields: sys-answers.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type RawRequest, type Started } from '../harness.js';

const ROOT = 'sr.client-sys-root';
let started: Started;
const send = (options: RawRequest) => request(started.url, { token: ROOT, ...options });

beforeAll(async () => {
  started = await startServer({ rootToken: ROOT });
}, 60_000);

afterAll(() => started?.stop());

/** Python's json.dumps, pretty (indent=4, sort_keys=True) or compact (its default separators). */
function pythonJson(value: unknown, pretty: boolean): string {
  if (pretty) return JSON.stringify(value, null, 4);
  return JSON.stringify(value).replaceAll('":', '": ').replaceAll(',"', ', "');
}

const listedPolicies = async () => (await send({ path: '/v1/sys/policy' })).json.data.policies as string[];

describe('hvac test_policy.py: the legacy sys/policy endpoints', () => {
  it.each([true, false])('create_or_update_policy with a dict (pretty %s) reads back as that JSON', async (pretty) => {
    const policy = { path: { 'test-path': { capabilities: ['read'] } } };
    const name = 'test-policy-policy';
    const written = await send({
      method: 'PUT',
      path: `/v1/sys/policy/${name}`,
      body: { policy: pythonJson(policy, pretty) },
    });
    expect(written.status).toBe(204);
    const read = await send({ path: `/v1/sys/policy/${name}` });
    expect(JSON.parse(read.json.data.rules)).toEqual(policy);
    expect((await send({ method: 'DELETE', path: `/v1/sys/policy/${name}` })).status).toBe(204);
  });

  it.each([
    // hvac's prep_policy, and test_json_policy_manipulation's policy: HCL with the legacy `policy` shorthand.
    '\n    path "sys" {\n        policy = "deny"\n    }\n        path "secret" {\n        policy = "write"\n    }\n    ',
    '\n            path "sys" {\n                policy = "deny"\n            }\n            path "secret" {\n                policy = "write"\n            }\n        ',
  ])('lists, reads back verbatim and deletes a policy (%#)', async (text) => {
    expect(await listedPolicies()).toContain('root');
    // hvac's get_policy answers None on the 404 (InvalidPath) of a policy that is not there.
    expect((await send({ path: '/v1/sys/policy/test' })).status).toBe(404);
    expect((await send({ method: 'PUT', path: '/v1/sys/policy/test', body: { policy: text } })).status).toBe(204);
    expect(await listedPolicies()).toContain('test');
    expect((await send({ path: '/v1/sys/policy/test' })).json.data.rules).toBe(text);
    expect((await send({ method: 'DELETE', path: '/v1/sys/policy/test' })).status).toBe(204);
    expect(await listedPolicies()).not.toContain('test');
  });
});

describe('hvac test_policies.py: sys/policies/acl', () => {
  const name = 'test-acl-policy';
  const text = 'path "sys/health" { capabilities = ["read", "sudo"]}';

  it('creates, updates and reads a policy: data is exactly {name, policy}', async () => {
    const path = `/v1/sys/policies/acl/${name}`;
    await send({ method: 'PUT', path, body: { policy: 'path "sys/health" { capabilities = ["read"]}' } });
    expect((await send({ method: 'PUT', path, body: { policy: text } })).status).toBe(204);
    expect((await send({ path })).json.data).toEqual({ name, policy: text });
  });

  it.each([true, false])('keeps a dict policy as sent (pretty %s)', async (pretty) => {
    const policy = { path: { 'sys/health': { capabilities: ['read', 'sudo'] } } };
    const path = '/v1/sys/policies/acl/test-acl-policy-dict';
    await send({ method: 'PUT', path, body: { policy: pythonJson(policy, pretty) } });
    const read = (await send({ path })).json.data;
    expect(read.name).toBe('test-acl-policy-dict');
    expect(JSON.parse(read.policy)).toEqual(policy);
    expect((read.policy as string).split('\n').length > 1).toBe(pretty);
  });

  it('lists with LIST and with GET ?list=true, root included', async () => {
    await send({ method: 'PUT', path: `/v1/sys/policies/acl/${name}`, body: { policy: text } });
    const listed = await send({ method: 'LIST', path: '/v1/sys/policies/acl' });
    expect(listed.json.data.keys).toEqual(expect.arrayContaining([name, 'default', 'root']));
    expect((await send({ path: '/v1/sys/policies/acl?list=true' })).json.data.keys).toEqual(listed.json.data.keys);
  });

  it('deletes: reading it then is a 404 (hvac: InvalidPath); deleting it again is no error', async () => {
    await send({ method: 'PUT', path: `/v1/sys/policies/acl/${name}`, body: { policy: text } });
    expect((await send({ method: 'DELETE', path: `/v1/sys/policies/acl/${name}` })).status).toBe(204);
    expect((await send({ path: `/v1/sys/policies/acl/${name}` })).status).toBe(404);
    expect((await send({ method: 'DELETE', path: `/v1/sys/policies/acl/${name}` })).status).toBe(204);
    expect((await send({ method: 'DELETE', path: '/v1/sys/policy/never-written' })).status).toBe(204);
  });
});

describe('hvac test_health.py and test_init.py', () => {
  it('answers HEAD and GET sys/health with 200, GET with initialized', async () => {
    const head = await request(started.url, { method: 'HEAD', path: '/v1/sys/health' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const get = await request(started.url, { path: '/v1/sys/health' });
    expect(get.status).toBe(200);
    expect(get.json.initialized).toBe(true);
  });

  it('answers GET sys/init with initialized, without a token', async () => {
    expect((await request(started.url, { path: '/v1/sys/init' })).json).toEqual({ initialized: true });
  });
});

describe('sys/leader', () => {
  it('leader: no HA and no leader, as a Vault without HA storage answers, without a token', async () => {
    const leader = await request(started.url, { path: '/v1/sys/leader' });
    expect(leader.status).toBe(200);
    expect(leader.json).toEqual({
      ha_enabled: false,
      is_self: false,
      active_time: '0001-01-01T00:00:00Z',
      leader_address: '',
      leader_cluster_address: '',
      performance_standby: false,
      performance_standby_last_remote_wal: 0,
    });
  });
});
