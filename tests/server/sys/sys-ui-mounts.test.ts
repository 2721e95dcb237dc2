// sys/internal/ui/mounts/<path>, which the Vault CLI asks before every `vault kv` command: it answers the mount of a
// path only to a token that has access to that mount, and answers a mount it may not see exactly as a path where
// nothing is mounted, so that it cannot be used to map the mounts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type Started } from '../harness.js';

let started: Started;
const send = (options: Parameters<typeof request>[1]) => request(started.url, { token: started.rootToken, ...options });
const mountOf = (path: string, token?: string) =>
  request(started.url, { path: `/v1/sys/internal/ui/mounts/${path}`, ...(token ? { token } : {}) });
const preflight = (path: string) => ({
  errors: [
    `preflight capability check returned 403, please ensure client's policies grant access to path ${JSON.stringify(path)}`,
  ],
});

let policies = 0;
async function tokenWith(policy: string, options: Record<string, unknown> = {}): Promise<string> {
  const name = `ui-${++policies}`;
  expect((await send({ method: 'PUT', path: `/v1/sys/policies/acl/${name}`, body: { policy } })).status).toBe(204);
  return (await send({ method: 'POST', path: '/v1/auth/token/create', body: { policies: [name], ...options } })).json
    .auth.client_token;
}

beforeAll(async () => {
  started = await startServer();
});
afterAll(() => started?.stop());

describe('GET sys/internal/ui/mounts/<path>', () => {
  it('answers a caller without a valid token 403, whatever the path', async () => {
    for (const path of ['secret', 'secret/app/db', 'secretive/x', 'auth/aws/login']) {
      for (const token of [undefined, 'sr.not-a-token']) {
        const answer = await mountOf(path, token);
        expect(answer.status).toBe(403);
        expect(answer.json).toEqual({ errors: ['permission denied'] });
      }
    }
  });

  it('answers the mount to root, and an unmounted path exactly as a mount the caller may not see', async () => {
    expect((await mountOf('secret/app/db', started.rootToken)).json.data).toMatchObject({
      path: 'secret/',
      type: 'kv',
      options: { version: '2' },
    });
    const unmounted = await mountOf('secretive/x', started.rootToken);
    expect(unmounted.status).toBe(403);
    expect(unmounted.json).toEqual(preflight('secretive/x/'));
    const stranger = await tokenWith('path "auth/token/lookup-self" { capabilities = ["read"] }');
    const hidden = await mountOf('secret/app/db', stranger);
    expect(hidden.status).toBe(403);
    expect(hidden.json).toEqual(preflight('secret/app/db/'));
  });

  it.each([
    ['shows', 'a rule on a key below the mount', 'path "secret/data/app/db" { capabilities = ["read"] }'],
    ['shows', 'a glob below the mount', 'path "secret/metadata/app/*" { capabilities = ["list"] }'],
    ['shows', 'a glob covering the mount', 'path "sec*" { capabilities = ["read"] }'],
    ['shows', 'a rule on the mount itself', 'path "secret/" { capabilities = ["update"] }'],
    ['shows', 'a segment wildcard whose first segment is the mount', 'path "secret/+/app" { capabilities = ["read"] }'],
    ['shows', 'a segment wildcard in the mount segment', 'path "+/data/*" { capabilities = ["create"] }'],
    ['shows', 'a lone segment wildcard', 'path "+" { capabilities = ["read"] }'],
    [
      'shows',
      'a denied key beside a granted one',
      'path "secret/data/a" { capabilities = ["deny"] }\npath "secret/data/b" { capabilities = ["patch"] }',
    ],
    [
      'shows',
      'a glob covering the mount beside a deny on the mount itself',
      'path "secret/" { capabilities = ["deny"] }\npath "sec*" { capabilities = ["list"] }',
    ],
    [
      'shows',
      'a glob of every path beside a deny on the mount itself',
      'path "secret/" { capabilities = ["deny"] }\npath "*" { capabilities = ["read"] }',
    ],
    ['hides', 'a deny on everything below the mount', 'path "secret/*" { capabilities = ["deny"] }'],
    [
      'hides',
      'a deny glob nearer the mount than a granting one',
      'path "s*" { capabilities = ["read"] }\npath "secr*" { capabilities = ["deny"] }',
    ],
    [
      'hides',
      'a deny before a grant on the same path',
      'path "secret/data/x" { capabilities = ["deny"] }\npath "secret/data/x" { capabilities = ["read"] }',
    ],
    [
      'hides',
      'a deny on the mount itself and grants elsewhere',
      'path "secret/" { capabilities = ["deny"] }\npath "secretive/*" { capabilities = ["read"] }',
    ],
    ['hides', 'a rule that lists no capability', 'path "secret/data/x" { capabilities = [] }'],
    ['hides', 'a segment wildcard for another mount', 'path "other/+/x" { capabilities = ["read"] }'],
    [
      'hides',
      'grants merged with a deny on the same path',
      'path "secret/data/x" { capabilities = ["read"] }\npath "secret/data/x" { capabilities = ["deny"] }',
    ],
  ])('%s the mount to a token with %s', async (verdict, _, policy) => {
    const answer = await mountOf('secret/app', await tokenWith(policy));
    if (verdict === 'shows') {
      expect(answer.status).toBe(200);
      expect(answer.json.data).toMatchObject({ path: 'secret/', type: 'kv' });
    } else {
      expect(answer.status).toBe(403);
      expect(answer.json).toEqual(preflight('secret/app/'));
    }
  });

  it('checks an auth mount with its auth/ path', async () => {
    const login = await tokenWith('path "auth/aws/login" { capabilities = ["update"] }');
    expect((await mountOf('auth/aws/login', login)).json.data).toMatchObject({ type: 'aws' });
    expect((await mountOf('secret/x', login)).status).toBe(403);
    const nested = await tokenWith('path "auth/+/role/*" { capabilities = ["read"] }');
    expect((await mountOf('auth/aws', nested)).status).toBe(200);
    // A `+` rule whose last segment is a glob matching the mount's last one, beside a deny on the mount itself.
    const denied = 'path "auth/aws/" { capabilities = ["deny"] }';
    expect(
      (await mountOf('auth/aws', await tokenWith(`${denied}\npath "+/aw*" { capabilities = ["read"] }`))).status,
    ).toBe(200);
    expect(
      (await mountOf('auth/aws', await tokenWith(`${denied}\npath "+/ax*" { capabilities = ["read"] }`))).status,
    ).toBe(403);
  });

  it('counts no use of a limited-use token, as Vault does not', async () => {
    const once = await tokenWith('path "secret/data/*" { capabilities = ["read", "create", "update"] }', {
      num_uses: 1,
    });
    expect((await mountOf('secret/app', once)).status).toBe(200);
    expect((await mountOf('secret/app', once)).status).toBe(200);
    // The one use is still there for the request the preflight was made for.
    expect(
      (
        await request(started.url, {
          method: 'POST',
          path: '/v1/secret/data/app',
          token: once,
          body: { data: { a: 1 } },
        })
      ).status,
    ).toBe(200);
    expect((await mountOf('secret/app', once)).status).toBe(403);
  });
});
