// Vault's older token endpoints, which take the token in the path (auth/token/lookup/<token>, renew/<token>,
// revoke/<token>) and which older clients still send: they work, and the token never reaches the request log, the
// audit log or an error message.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clocks.js';
import { request, startServer, type Started } from '../harness.js';

const ROOT = 'sr.path-root';
let started: Started;
let auditFile: string;
let clock: ManualClock;
const send = (options: Parameters<typeof request>[1]) => request(started.url, { token: ROOT, ...options });
const create = async (body: object = {}) =>
  (await send({ method: 'POST', path: '/v1/auth/token/create', body: { ttl: 600, ...body } })).json.auth
    .client_token as string;
const auditHash = async (input: string) =>
  (await send({ method: 'POST', path: '/v1/sys/audit-hash/file', body: { input } })).json.data.hash as string;
/** Everything the server wrote where an operator reads: the request log and the audit file. */
const written = () => `${JSON.stringify(started.logs)}\n${readFileSync(auditFile, 'utf8')}`;
const WARNING =
  'the token was sent in the request path, where logs and proxies can record it: send it in the request body ("token") instead';

beforeAll(async () => {
  auditFile = join(mkdtempSync(join(tmpdir(), 'strongroom-token-path-')), 'audit.log');
  clock = new ManualClock('2026-03-01T00:00:00Z');
  started = await startServer({ clock, rootToken: ROOT, auditFile });
  await send({
    method: 'PUT',
    path: '/v1/sys/policies/acl/looker',
    body: { policy: 'path "auth/token/lookup" { capabilities = ["update"] }' },
  });
});

afterAll(() => started?.stop());

describe('the token in the path', () => {
  it('is looked up by GET and POST, with a warning', async () => {
    const token = await create({ policies: ['default'] });
    for (const method of ['GET', 'POST']) {
      const looked = await send({ method, path: `/v1/auth/token/lookup/${token}` });
      expect(looked.status).toBe(200);
      expect(looked.json.data).toMatchObject({ id: token, policies: ['default'], ttl: 600 });
      expect(looked.json.warnings).toEqual([WARNING]);
    }
    expect(written()).not.toContain(token);
  });

  it('is renewed and revoked', async () => {
    const token = await create();
    clock.advance(100);
    const renewed = await send({ method: 'POST', path: `/v1/auth/token/renew/${token}`, body: { increment: 300 } });
    expect(renewed.status).toBe(200);
    expect(renewed.json.auth.lease_duration).toBe(300);
    expect(renewed.json.warnings).toEqual([WARNING]);
    expect((await send({ method: 'PUT', path: `/v1/auth/token/revoke/${token}` })).status).toBe(204);
    expect((await send({ path: '/v1/auth/token/lookup-self', token })).status).toBe(403);
    expect(written()).not.toContain(token);
  });

  it('gives way to a token in the body, as in Vault', async () => {
    const [inPath, inBody] = [await create(), await create()];
    const looked = await send({ method: 'POST', path: `/v1/auth/token/lookup/${inPath}`, body: { token: inBody } });
    expect(looked.json.data.id).toBe(inBody);
    expect(looked.json.warnings).toBeNull();
    expect(written()).not.toContain(inPath);
  });

  it('is hashed in the audit log, where auditors find it with sys/audit-hash', async () => {
    const token = await create();
    await send({ path: `/v1/auth/token/lookup/${token}` });
    const paths = readFileSync(auditFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).request.path as string);
    expect(paths.at(-1)).toBe(`auth/token/lookup/${await auditHash(token)}`);
  });

  it('is replaced in the request log, percent-encoded forms and refused paths included', async () => {
    const token = await create();
    const encoded = token.replace('.', '%2E');
    const paths = [
      `/v1/auth/token/lookup/${encoded}`,
      `/v1/auth/token/%6Cookup/${token}?x=1`,
      `/v1/auth/token/lookup%2F${token}`,
      `/v1//auth/token/lookup/${token}`,
      `/v1/auth/token/LOOKUP/${token}%zz`,
      `/v1/auth/token/revoke/%0A${token}`,
      '/v1/secret/data/a%20b?version=1',
      '/v1/auth/token/lookup-self',
    ];
    for (const path of paths) await send({ path });
    expect(started.logs.slice(-paths.length).map((entry) => entry.path)).toEqual([
      '/v1/auth/token/lookup/<redacted>',
      '/v1/auth/token/lookup/<redacted>',
      '/v1/auth/token/lookup/<redacted>',
      '/v1//auth/token/lookup/<redacted>',
      '/v1/auth/token/LOOKUP/<redacted>',
      '/v1/auth/token/revoke/<redacted>',
      // Other paths as they were sent, without the query.
      '/v1/secret/data/a%20b',
      '/v1/auth/token/lookup-self',
    ]);
    expect(written()).not.toContain(token.slice(3));
  });

  it('stays out of refusals: a method the path does not take, a missing permission, a bad token', async () => {
    const token = await create();
    const looker = await create({ policies: ['looker'] });
    const refusals = [
      await send({ method: 'DELETE', path: `/v1/auth/token/revoke/${token}` }),
      await send({ method: 'GET', path: `/v1/auth/token/renew/${token}` }),
      await send({ path: `/v1/auth/token/lookup/${token}`, token: looker }),
      await send({ path: '/v1/auth/token/lookup/sr.not-a-token' }),
    ];
    expect(refusals.map((answer) => [answer.status, answer.json.errors])).toEqual([
      [405, ['DELETE is not supported on "auth/token/revoke/<redacted>"']],
      [405, ['GET is not supported on "auth/token/renew/<redacted>"']],
      [403, ['permission denied']],
      [403, ['bad token']],
    ]);
    expect(written()).not.toContain(token);
    expect(written()).not.toContain('sr.not-a-token');
  });

  it('is redacted in the refusal of every method a path does not take', async () => {
    const token = await create();
    // SCAN travels as GET ?scan=true.
    for (const [method, path] of [
      ['LIST', 'revoke'],
      ['SCAN', 'revoke'],
      ['PATCH', 'lookup'],
      ['PUT', 'lookup'],
      ['DELETE', 'renew'],
      ['GET', 'revoke'],
    ]) {
      const scan = method === 'SCAN';
      const refused = await send({
        method: scan ? 'GET' : method,
        path: `/v1/auth/token/${path}/${token}${scan ? '?scan=true' : ''}`,
      });
      if (method === 'PUT') {
        expect(refused.status).toBe(200);
        continue;
      }
      expect(refused.json, method).toEqual({
        errors: [`${method} is not supported on "auth/token/${path}/<redacted>"`],
      });
    }
  });
});
