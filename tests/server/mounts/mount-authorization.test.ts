// Who may see and change mounts, as Vault decides it: sys/mounts writes need the capability on their path; sys/auth
// writes and sys/remount need sudo as well; the Vault CLI's preflight answers only for a mount the token may use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type Started } from '../harness.js';

const ROOT = 'sr.mount-acl';
let started: Started;
const send = (options: Parameters<typeof request>[1]) => request(started.url, { token: ROOT, ...options });
const preflight = (path: string, token?: string) =>
  request(started.url, { path: `/v1/sys/internal/ui/mounts/${path}`, ...(token ? { token } : {}) });

let policies = 0;
async function tokenWith(policy: string): Promise<string> {
  const name = `mount-acl-${++policies}`;
  expect((await send({ method: 'PUT', path: `/v1/sys/policies/acl/${name}`, body: { policy } })).status).toBe(204);
  const body = { policies: [name], no_default_policy: true };
  return (await send({ method: 'POST', path: '/v1/auth/token/create', body })).json.auth.client_token;
}
const denied = (path: string) => ({
  errors: [`preflight capability check returned 403, please ensure client's policies grant access to path "${path}"`],
});

beforeAll(async () => {
  started = await startServer({ rootToken: ROOT });
  expect((await send({ method: 'POST', path: '/v1/sys/mounts/team', body: { type: 'kv-v2' } })).status).toBe(204);
});
afterAll(() => started?.stop());

describe('the preflight of the Vault CLI (sys/internal/ui/mounts)', () => {
  it('answers the mount and its KV version to a token that may use it, and 403 to others as for no mount', async () => {
    const team = await tokenWith('path "team/data/*" { capabilities = ["read"] }');
    const other = await tokenWith('path "secret/data/*" { capabilities = ["read"] }');
    const found = await preflight('team/app/db', team);
    expect(found.status).toBe(200);
    expect(found.json.data).toMatchObject({ path: 'team/', type: 'kv', options: { version: '2' } });
    const refused = await preflight('team/app/db', other);
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual(denied('team/app/db/'));
    expect((await preflight('nothing/here', team)).json).toEqual(denied('nothing/here/'));
    expect((await preflight('team/app/db')).status).toBe(403);
  });

  it('follows a mount that moves: a policy naming the old path opens nothing at the new one', async () => {
    expect((await send({ method: 'POST', path: '/v1/sys/mounts/moving', body: { type: 'kv-v2' } })).status).toBe(204);
    const mover = await tokenWith('path "moving/*" { capabilities = ["read"] }');
    expect((await preflight('moving', mover)).status).toBe(200);
    const moved = await send({ method: 'POST', path: '/v1/sys/remount', body: { from: 'moving', to: 'moved' } });
    expect(moved.status).toBe(200);
    expect((await preflight('moved', mover)).status).toBe(403);
    expect((await preflight('moved', ROOT)).json.data.path).toBe('moved/');
  });
});

describe('changing mounts', () => {
  it('lets a token with update on sys/mounts/<path> enable a secrets engine, without sudo, as Vault does', async () => {
    const operator = await tokenWith('path "sys/mounts/*" { capabilities = ["create", "read", "update", "delete"] }');
    const as = (options: Parameters<typeof request>[1]) => request(started.url, { token: operator, ...options });
    expect((await as({ method: 'POST', path: '/v1/sys/mounts/ops', body: { type: 'kv-v2' } })).status).toBe(204);
    expect((await as({ method: 'POST', path: '/v1/sys/mounts/ops/tune', body: { description: 'x' } })).status).toBe(
      204,
    );
    expect((await as({ method: 'DELETE', path: '/v1/sys/mounts/ops' })).status).toBe(204);
    // Listing the table is sys/mounts itself, which this policy does not name.
    expect((await as({ path: '/v1/sys/mounts' })).status).toBe(403);
    // Auth methods and moves are root-protected: update alone is not enough.
    const authOperator = await tokenWith(
      'path "sys/auth/*" { capabilities = ["create", "update"] }\npath "sys/remount" { capabilities = ["update"] }',
    );
    const asAuth = (options: Parameters<typeof request>[1]) =>
      request(started.url, { token: authOperator, ...options });
    expect((await asAuth({ method: 'POST', path: '/v1/sys/auth/aws2', body: { type: 'aws' } })).status).toBe(403);
    const remount = { from: 'team', to: 'team2' };
    expect((await asAuth({ method: 'POST', path: '/v1/sys/remount', body: remount })).status).toBe(403);
    expect((await send({ path: '/v1/sys/auth' })).json.data['aws2/']).toBeUndefined();
    expect((await send({ path: '/v1/sys/mounts' })).json.data['team/']).toBeDefined();
  });
});
