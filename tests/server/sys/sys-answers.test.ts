// What the sys/ routes answer, field by field, and that each route answers its own path only: a path with anything
// before or after it is no route (404), so that an unauthenticated route cannot be reached under another name.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clocks.js';
import { SERVER_VERSION } from '../../../src/server/routes/version.js';
import { dataDir, request, startServer, type Started } from '../harness.js';

const ROOT = 'sr.answers';
const clock = new ManualClock('2026-03-01T12:00:00.750Z');
let started: Started | undefined;
/** The server starts inside the first test that needs it: a server that cannot start fails tests, not a hook. */
async function server(): Promise<Started> {
  started ??= await startServer({ rootToken: ROOT, clock, auditFile: join(dataDir(), 'audit.log') });
  return started;
}
afterAll(() => started?.stop());

const send = async (options: Parameters<typeof request>[1]) =>
  request((await server()).url, { token: ROOT, ...options });
/** A mount's view, as Vault's mountInfo: the accessor and uuid are made when the mount is, so any such string. */
const view = (type: string, description: string, options: unknown, auth: boolean) => ({
  type,
  description,
  accessor: expect.stringMatching(
    auth ? new RegExp(`^auth_${type}_[0-9a-f]{8}$`) : new RegExp(`^${type}_[0-9a-f]{8}$`),
  ),
  uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
  options,
  local: false,
  seal_wrap: false,
  external_entropy_access: false,
  config: {
    default_lease_ttl: 0,
    max_lease_ttl: 0,
    force_no_cache: false,
    ...(auth ? { token_type: 'default-service' } : {}),
  },
});
const KV_VIEW = view('kv', 'key/value secret storage', { version: '2' }, false);
const AWS_VIEW = view('aws', 'cloud identity auth method', null, true);
const TOKEN_VIEW = {
  type: 'token',
  description: 'token based credentials',
  accessor: 'auth_token',
  uuid: '',
  options: null,
  local: false,
  seal_wrap: false,
  external_entropy_access: false,
  config: { default_lease_ttl: 0, max_lease_ttl: 0, force_no_cache: false, token_type: 'default-service' },
};

describe('sys/ answers', () => {
  it('health and seal status, in full', async () => {
    expect((await send({ path: '/v1/sys/health', token: undefined })).json).toEqual({
      initialized: true,
      sealed: false,
      standby: false,
      performance_standby: false,
      replication_performance_mode: 'disabled',
      replication_dr_mode: 'disabled',
      server_time_utc: Math.floor(Date.parse('2026-03-01T12:00:00Z') / 1000),
      version: SERVER_VERSION,
    });
    expect((await send({ path: '/v1/sys/seal-status', token: undefined })).json).toEqual({
      type: 'shamir',
      initialized: true,
      sealed: false,
      t: 0,
      n: 0,
      progress: 0,
      nonce: '',
      version: SERVER_VERSION,
      build_date: '1970-01-01T00:00:00Z',
      migration: false,
      recovery_seal: false,
      storage_type: 'strongroom',
    });
  });

  it('the mounts and auth methods, in full', async () => {
    const mounts = (await send({ path: '/v1/sys/mounts' })).json;
    expect(mounts.data).toEqual({ 'secret/': KV_VIEW });
    // Vault answers the table at the top level too, for older clients.
    expect(mounts['secret/']).toEqual(mounts.data['secret/']);
    expect((await send({ path: '/v1/sys/mounts/secret/' })).json.data).toEqual(KV_VIEW);
    expect((await send({ path: '/v1/sys/mounts/secret/app' })).json.data).toEqual(KV_VIEW);
    expect((await send({ path: '/v1/sys/mounts/auth/aws' })).json.data).toEqual(AWS_VIEW);
    for (const path of ['secretive', 'nowhere']) {
      const missing = await send({ path: `/v1/sys/mounts/${path}` });
      expect(missing.status).toBe(400);
      expect(missing.json).toEqual({ errors: [`No secret engine mount at ${path}/`] });
    }
    const auth = (await send({ path: '/v1/sys/auth' })).json;
    expect(auth.data).toEqual({ 'aws/': AWS_VIEW, 'token/': TOKEN_VIEW });
    expect(auth['aws/']).toEqual(auth.data['aws/']);
    expect((await send({ path: '/v1/sys/auth/aws/' })).json.data).toEqual(AWS_VIEW);
    expect((await send({ path: '/v1/sys/auth/nowhere' })).json).toEqual({
      errors: ['No auth engine at auth/nowhere/'],
    });
    expect((await send({ path: '/v1/sys/internal/ui/mounts/auth/aws/login' })).json.data).toEqual({
      path: 'auth/aws/',
      ...AWS_VIEW,
    });
  });

  it('the refusal of a mount the server cannot serve, with its reason', async () => {
    expect((await send({ method: 'POST', path: '/v1/sys/mounts/transit', body: { type: 'transit' } })).json).toEqual({
      errors: ['plugin not found in the catalog: transit'],
    });
    expect((await send({ method: 'POST', path: '/v1/sys/auth/ldap', body: { type: 'ldap' } })).json).toEqual({
      errors: ['plugin not found in the catalog: ldap'],
    });
  });

  it('the audit hash of a value, and a 400 without one', async () => {
    const key = await send({ method: 'POST', path: '/v1/sys/audit-hash/file', body: { input: 'canary' } });
    expect(key.json.data.hash).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(
      (await send({ method: 'POST', path: '/v1/sys/audit-hash/file', body: { input: 'canary' } })).json.data.hash,
    ).toBe(key.json.data.hash);
    expect((await send({ method: 'POST', path: '/v1/sys/audit-hash/file', body: {} })).status).toBe(400);
  });

  it('a missing policy as 404 with no message; a body that is not an object as 400', async () => {
    expect(await send({ path: '/v1/sys/policies/acl/missing' })).toMatchObject({ status: 404, json: { errors: [] } });
    expect(await send({ path: '/v1/sys/policy/missing' })).toMatchObject({ status: 404, json: { errors: [] } });
    for (const body of [['path "a" {}'], 'path "a" {}', 7]) {
      const refused = await send({ method: 'PUT', path: '/v1/sys/policies/acl/shape', body });
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({ errors: ['the request body must be a JSON object'] });
    }
  });

  it('the capabilities of the caller, under `paths` or `path`, and a 400 for none', async () => {
    const answer = await send({ method: 'POST', path: '/v1/sys/capabilities-self', body: { path: 'secret/data/x' } });
    expect(answer.json.data).toEqual({ 'secret/data/x': ['root'], capabilities: ['root'] });
    const none = await send({ method: 'POST', path: '/v1/sys/capabilities-self', body: {} });
    expect(none.json).toEqual({ errors: ['"paths" must be a non-empty list of paths'] });
  });
});

describe('each route answers its own path only', () => {
  const FIXED = [
    'sys/health',
    'sys/seal-status',
    'sys/init',
    'sys/mounts',
    'sys/auth',
    'sys/audit',
    'sys/policies/acl',
    'sys/policy',
    'sys/capabilities-self',
    'sys/events/subscribe/secret',
  ];
  const PARAMETERS = [
    'sys/internal/ui/mounts/secret',
    'sys/mounts/secret',
    'sys/auth/aws',
    'sys/audit/file',
    'sys/audit-hash/file',
    'sys/policies/acl/default',
    'sys/policy/default',
  ];
  const noRoute = async (path: string) => {
    const answer = await send({ path: `/v1/${path}` });
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ errors: [`no handler for route ${JSON.stringify(path)}`] });
  };

  it.each([...FIXED, ...PARAMETERS])('nothing before %s', (path) => noRoute(`x/${path}`));
  it.each(FIXED)('nothing after %s', (path) => noRoute(`${path}x`));
});
