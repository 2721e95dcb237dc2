// Every sys/ route against Vault's authorization for the same path: a token holding exactly the capability Vault asks
// for (and sudo on Vault's root-protected paths) gets through to the route; a token holding every other capability is
// refused with 403 before the route does anything, whatever the route would answer.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDir, request, startServer, type Started } from '../harness.js';

let started: Started;
const send = (options: Parameters<typeof request>[1]) => request(started.url, { token: started.rootToken, ...options });

beforeAll(async () => {
  // With an audit device, so that sys/audit-hash/file answers.
  started = await startServer({ auditFile: join(dataDir(), 'audit.log') });
  expect(
    (
      await send({
        method: 'PUT',
        path: '/v1/sys/policies/acl/gone',
        body: { policy: 'path "a" { capabilities = ["read"] }' },
      })
    ).status,
  ).toBe(204);
});
afterAll(() => started?.stop());

const ALL = ['create', 'read', 'update', 'delete', 'list', 'sudo', 'patch', 'scan'] as const;
type Capability = (typeof ALL)[number];

interface Case {
  method: string;
  path: string;
  /** The path Vault asks the ACL about (a LIST's gets a trailing '/'). */
  acl: string;
  needs: Capability;
  /** Vault's root-protected paths (sys/auth/*, sys/remount, sys/audit, sys/audit/*) also need sudo. */
  sudo?: boolean;
  /** What the route answers a token allowed to call it. */
  status: number;
  body?: unknown;
}

/**
 * A mount's life under `base` (sys/mounts or sys/auth): enabled, its tune read and written, disabled. The ACL path is
 * the request's own; sys/auth/* is root-protected, so there `sudo` is asked as well.
 */
function mountLife(base: string, name: string, enable: unknown, tune: unknown): Case[] {
  const sudo = base === 'sys/auth';
  const at = (path: string, method: string, needs: Capability, status: number, body?: unknown): Case => ({
    method,
    path,
    acl: path,
    needs,
    status,
    ...(sudo ? { sudo } : {}),
    ...(body === undefined ? {} : { body }),
  });
  return [
    at(`${base}/${name}`, 'POST', 'update', 204, enable),
    at(`${base}/${name}/tune`, 'GET', 'read', 200),
    at(`${base}/${name}/tune`, 'POST', 'update', 204, tune),
    at(`${base}/${name}`, 'DELETE', 'delete', 204),
  ];
}

const CASES: Case[] = [
  { method: 'GET', path: 'sys/mounts', acl: 'sys/mounts', needs: 'read', status: 200 },
  { method: 'GET', path: 'sys/mounts/secret', acl: 'sys/mounts/secret', needs: 'read', status: 200 },
  ...mountLife('sys/mounts', 'other', { type: 'kv', options: { version: '2' } }, { description: 'tuned' }),
  { method: 'GET', path: 'sys/auth', acl: 'sys/auth', needs: 'read', status: 200 },
  { method: 'GET', path: 'sys/auth/aws', acl: 'sys/auth/aws', needs: 'read', sudo: true, status: 200 },
  ...mountLife('sys/auth', 'aws-more', { type: 'aws' }, { max_lease_ttl: '1h' }),
  // Vault's other way to tune an auth method, without sudo.
  {
    method: 'POST',
    path: 'sys/mounts/auth/aws/tune',
    acl: 'sys/mounts/auth/aws/tune',
    needs: 'update',
    status: 204,
    body: { description: 'cloud identity auth method' },
  },
  {
    method: 'POST',
    path: 'sys/remount',
    acl: 'sys/remount',
    needs: 'update',
    sudo: true,
    status: 400,
    body: { from: 'nowhere', to: 'elsewhere' },
  },
  { method: 'GET', path: 'sys/audit', acl: 'sys/audit', needs: 'read', sudo: true, status: 200 },
  {
    method: 'PUT',
    path: 'sys/audit/api',
    acl: 'sys/audit/api',
    needs: 'update',
    sudo: true,
    status: 204,
    body: { type: 'file', options: { file_path: join(dataDir(), 'api-audit.log') } },
  },
  // Disabling a device that is not there is no error, as in Vault.
  { method: 'DELETE', path: 'sys/audit/gone', acl: 'sys/audit/gone', needs: 'delete', sudo: true, status: 204 },
  {
    method: 'POST',
    path: 'sys/audit-hash/file',
    acl: 'sys/audit-hash/file',
    needs: 'update',
    status: 200,
    body: { input: 'x' },
  },
  { method: 'LIST', path: 'sys/policies/acl', acl: 'sys/policies/acl/', needs: 'list', status: 200 },
  { method: 'GET', path: 'sys/policies/acl/default', acl: 'sys/policies/acl/default', needs: 'read', status: 200 },
  {
    method: 'PUT',
    path: 'sys/policies/acl/fresh',
    acl: 'sys/policies/acl/fresh',
    needs: 'update',
    status: 204,
    body: { policy: 'path "a" { capabilities = ["read"] }' },
  },
  { method: 'DELETE', path: 'sys/policies/acl/gone', acl: 'sys/policies/acl/gone', needs: 'delete', status: 204 },
  { method: 'GET', path: 'sys/policy', acl: 'sys/policy', needs: 'read', status: 200 },
  { method: 'LIST', path: 'sys/policy', acl: 'sys/policy/', needs: 'list', status: 200 },
  { method: 'GET', path: 'sys/policy/default', acl: 'sys/policy/default', needs: 'read', status: 200 },
  {
    method: 'POST',
    path: 'sys/policy/fresh-legacy',
    acl: 'sys/policy/fresh-legacy',
    needs: 'update',
    status: 204,
    body: { rules: 'path "a" { capabilities = ["read"] }' },
  },
  { method: 'DELETE', path: 'sys/policy/gone', acl: 'sys/policy/gone', needs: 'delete', status: 204 },
  {
    method: 'POST',
    path: 'sys/capabilities-self',
    acl: 'sys/capabilities-self',
    needs: 'update',
    status: 200,
    body: { paths: ['secret/data/x'] },
  },
];

let policies = 0;
/** A token whose only policy grants `capabilities` on `path`, without the default policy. */
async function tokenWith(path: string, capabilities: readonly Capability[]): Promise<string> {
  const name = `case-${++policies}`;
  const policy = `path "${path}" { capabilities = [${capabilities.map((capability) => `"${capability}"`).join(', ')}] }`;
  expect((await send({ method: 'PUT', path: `/v1/sys/policies/acl/${name}`, body: { policy } })).status).toBe(204);
  const created = await send({
    method: 'POST',
    path: '/v1/auth/token/create',
    body: { policies: [name], no_default_policy: true },
  });
  return created.json.auth.client_token;
}

describe('sys/ routes ask the ACL what Vault asks it', () => {
  it.each(CASES)(
    '$method $path needs $needs (sudo: $sudo)',
    async ({ method, path, acl, needs, sudo, status, body }) => {
      const call = (token: string) => request(started.url, { method, path: `/v1/${path}`, token, body });
      // The refusals first: a write they let through would change what the allowed call finds.
      const everythingElse = ALL.filter((capability) => capability !== needs);
      const refused = await call(await tokenWith(acl, everythingElse));
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({ errors: ['permission denied'] });
      if (sudo)
        expect(
          (
            await call(
              await tokenWith(
                acl,
                ALL.filter((capability) => capability !== 'sudo'),
              ),
            )
          ).status,
        ).toBe(403);
      const allowed = await call(await tokenWith(acl, sudo ? [needs, 'sudo'] : [needs]));
      expect(allowed.status).toBe(status);
    },
  );

  it('shows an auth method to a caller with read and sudo on sys/auth/<path>, as Vault does', async () => {
    const answer = await send({ path: '/v1/sys/auth/aws' });
    expect(answer.json.data).toMatchObject({ type: 'aws', description: 'cloud identity auth method' });
    expect((await send({ path: '/v1/sys/auth/token' })).json.data).toMatchObject({ type: 'token' });
    expect((await send({ path: '/v1/sys/auth/nowhere' })).status).toBe(400);
  });

  it('lists the policies on LIST sys/policy, as on GET', async () => {
    const listed = await send({ method: 'LIST', path: '/v1/sys/policy' });
    expect(listed.json.data.keys).toEqual((await send({ path: '/v1/sys/policy' })).json.data.keys);
    expect(listed.json.data.keys).toContain('default');
  });
});
