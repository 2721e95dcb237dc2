// The example server's HTTP layer, with raw requests: status codes, bodies, paths exactly as sent, limits, logging.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { request, startServer, type Started } from '../harness.js';
import { hvacHere } from '../../support/hvac.js';

let started: Started;
let root: string;
const send = (options: Parameters<typeof request>[1]) => request(started.url, options);

beforeAll(async () => {
  started = await startServer({ maxBodyBytes: 4096 });
  root = started.rootToken;
  await send({ method: 'POST', path: '/v1/secret/data/team/public/x', token: root, body: { data: { open: 'yes' } } });
  await send({
    method: 'POST',
    path: '/v1/secret/data/team/protected/x',
    token: root,
    body: { data: { secret: 'hunter2' } },
  });
}, 120_000);

afterAll(() => started?.stop());

describe('wire format', () => {
  it('answers 200 with the Vault envelope, 204 with no body at all', async () => {
    const write = await send({ method: 'PUT', path: '/v1/secret/data/wire', token: root, body: { data: { a: 1 } } });
    expect(write.status).toBe(200);
    expect(write.headers['content-type']).toBe('application/json');
    expect(Object.keys(write.json)).toEqual([
      'request_id',
      'lease_id',
      'renewable',
      'lease_duration',
      'data',
      'wrap_info',
      'warnings',
      'auth',
    ]);

    const deleted = await send({ method: 'DELETE', path: '/v1/secret/data/wire', token: root });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(deleted.headers['content-type']).toBeUndefined();
  });

  it('answers errors as {"errors": [...]}', async () => {
    const missing = await send({ path: '/v1/secret/data/never-written', token: root });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ errors: [] });
    const noData = await send({ method: 'POST', path: '/v1/secret/data/wire', token: root, body: {} });
    expect(noData.status).toBe(400);
    expect(noData.json).toEqual({ errors: ['no data provided'] });
  });

  it('answers a KV PATCH of a missing key with an empty 404', async () => {
    const patch = await send({
      method: 'PATCH',
      path: '/v1/secret/data/never-written',
      token: root,
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: { data: { a: 1 } },
    });
    expect(patch.status).toBe(404);
    expect(patch.text).toBe('');
  });

  it('treats LIST, GET ?list=true and GET ?list=1 as one request', async () => {
    const viaList = await send({ method: 'LIST', path: '/v1/secret/metadata/team', token: root });
    const viaQuery = await send({ path: '/v1/secret/metadata/team/?list=true', token: root });
    const viaOne = await send({ path: '/v1/secret/metadata/team?list=1', token: root });
    expect(viaList.status).toBe(200);
    expect(viaList.json.data).toEqual({ keys: ['protected/', 'public/'] });
    expect(viaQuery.json.data).toEqual(viaList.json.data);
    expect(viaOne.json.data).toEqual(viaList.json.data);
    // Without list=true a GET of the folder is a metadata read of a key that does not exist.
    expect((await send({ path: '/v1/secret/metadata/team/?list=false', token: root })).status).toBe(404);
  });

  it('refuses unparsable JSON with 400', async () => {
    const bad = await send({
      method: 'POST',
      path: '/v1/secret/data/wire',
      token: root,
      rawBody: '{"data": hunter2',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ errors: ['failed to parse JSON input: the body is not valid JSON'] });
  });

  it('answers 404 outside /v1/ and for unknown routes, 405 for a method a route lacks', async () => {
    expect((await send({ path: '/', token: root })).status).toBe(404);
    expect((await send({ path: '/v1/nowhere/at/all', token: root })).json).toEqual({
      errors: ['no handler for route "nowhere/at/all"'],
    });
    expect((await send({ method: 'DELETE', path: '/v1/sys/health', token: root })).status).toBe(405);
  });

  it('tells the Vault CLI where the KV version 2 mount is (its preflight before `vault kv` commands)', async () => {
    const answer = await send({ path: '/v1/sys/internal/ui/mounts/secret/app/db', token: root });
    expect(answer.json.data).toMatchObject({ path: 'secret/', type: 'kv', options: { version: '2' } });
    expect((await send({ path: '/v1/sys/internal/ui/mounts/secret', token: root })).json.data.path).toBe('secret/');
    // Without a token, or for a path where nothing is mounted, Vault's 403 (tests/server/sys/sys-ui-mounts.test.ts).
    expect((await send({ path: '/v1/sys/internal/ui/mounts/secret' })).status).toBe(403);
    expect((await send({ path: '/v1/sys/internal/ui/mounts/secretive/x', token: root })).status).toBe(403);
  });

  it('answers HEAD sys/health with headers only', async () => {
    const head = await send({ method: 'HEAD', path: '/v1/sys/health' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });
});

describe('response wrapping', () => {
  // A client asking for a wrapped answer means to hand a single-use wrapping token to someone else: the secret itself
  // must not be in the answer, only the wrapper.
  it('answers wrap_info rather than the secret; an empty header asks for no wrapping', async () => {
    const read = await send({
      path: '/v1/secret/data/team/protected/x',
      token: root,
      headers: { 'X-Vault-Wrap-TTL': '60s' },
    });
    expect(read.status).toBe(200);
    expect(read.json.wrap_info.ttl).toBe(60);
    expect(read.text).not.toContain('hunter2');
    expect(
      (await send({ path: '/v1/secret/data/team/protected/x', token: root, headers: { 'X-Vault-Wrap-TTL': '' } })).json
        .data.data.secret,
    ).toBe('hunter2');
  });

  it.skipIf(!hvacHere)("answers hvac's wrap_ttl with a wrapped token that hvac unwraps once", async () => {
    const script = [
      'import sys, hvac',
      'c = hvac.Client(url=sys.argv[1], token=sys.argv[2])',
      'r = c.auth.token.create(policies=["default"], wrap_ttl="60s")',
      'assert r["auth"] is None',
      't = c.sys.unwrap(r["wrap_info"]["token"])',
      'print(r["wrap_info"]["ttl"], t["auth"]["policies"])',
      'try:',
      '    c.sys.unwrap(r["wrap_info"]["token"])',
      'except hvac.exceptions.InvalidRequest as error:',
      '    print("again:", error)',
    ].join('\n');
    const { stdout } = await promisify(execFile)('/usr/bin/python3', ['-c', script, started.url, root]);
    expect(stdout).toMatch(/^60 \['default'\]\nagain: wrapping token is not valid or does not exist/);
  });
});

describe('body size limit', () => {
  const big = JSON.stringify({ data: { blob: 'x'.repeat(5000) } });

  it('refuses a declared oversized body with 413 before reading it', async () => {
    const refused = await send({ method: 'POST', path: '/v1/secret/data/big', token: root, rawBody: big });
    expect(refused.status).toBe(413);
    expect(refused.json).toEqual({ errors: ['request body is larger than the limit of 4096 bytes'] });
    expect(refused.headers.connection).toBe('close');
  });

  it('refuses a chunked body once it passes the limit', async () => {
    const refused = await send({
      method: 'POST',
      path: '/v1/secret/data/big',
      token: root,
      rawBody: big,
      headers: { 'Transfer-Encoding': 'chunked' },
    });
    expect(refused.status).toBe(413);
    expect((await send({ path: '/v1/secret/data/big', token: root })).status).toBe(404);
  });

  it('accepts a body just under the limit', async () => {
    const fits = JSON.stringify({ data: { blob: 'x'.repeat(4000) } });
    expect((await send({ method: 'POST', path: '/v1/secret/data/big', token: root, rawBody: fits })).status).toBe(200);
  });
});

describe('paths are checked after percent-decoding', () => {
  it.each([
    ['GET', '/v1/secret/data/team/public/../protected/x'],
    ['GET', '/v1/secret/data/team/public/%2e%2e/protected/x'],
    ['GET', '/v1/secret/data/team/public/%2E%2E/protected/x'],
    ['GET', '/v1/secret/data/team/public/.%2e/protected/x'],
    ['GET', '/v1/secret/data/team/public/./x'],
    ['PUT', '/v1/secret/destroy/team/public/../protected/x'],
    ['GET', '/v1/secret/metadata/team/public////protected/x'],
    ['GET', '/v1/secret/metadata/team/public/%2F%2F/protected/x'],
    ['GET', '/v1/secret/metadata/team/public%2f%2fprotected/x'],
    ['GET', '/v1/secret/metadata/team/public//protected/x'],
    ['GET', '/v1/secret/data/team/%00/x'],
    ['GET', '/v1/secret/data/team/%zz/x'],
    ['GET', '/v1/sys/policies/acl/%2e%2e'],
    ['LIST', '/v1/secret/metadata/team/%2e%2e/'],
  ])('%s %s → 400', async (method, path) => {
    const answer = await send({ method, path, token: root, body: method === 'PUT' ? { versions: [1] } : undefined });
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0]).toMatch(/invalid path/);
  });

  it('takes a double-encoded %252e%252e as an ordinary name (404), and a trailing slash on a key as another key', async () => {
    expect((await send({ path: '/v1/secret/data/team/public/%252e%252e/protected/x', token: root })).status).toBe(404);
    expect((await send({ path: '/v1/secret/metadata/team/public/x/', token: root })).status).toBe(404);
    expect((await send({ path: '/v1/secret/data/team/public/x', token: root })).json.data.data).toEqual({
      open: 'yes',
    });
  });

  it('leaves the protected secret untouched', async () => {
    const read = await send({ path: '/v1/secret/data/team/protected/x', token: root });
    expect(read.json.data.metadata.destroyed).toBe(false);
    expect(read.json.data.data).toEqual({ secret: 'hunter2' });
  });
});

describe('bad input', () => {
  it('never gets a 5xx, whatever the method, path, token and body', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        'secret',
        'data',
        'metadata',
        'sys',
        'policies',
        'acl',
        'auth',
        'token',
        'cloud',
        'role',
        'login',
        'config',
      ),
      fc.constantFrom('%2e%2e', '.', '', '%00', '%zz', '%252e', '__proto__', 'constructor', 'a%2Fb', '+', '*'),
      fc.string({ maxLength: 6 }).map(encodeURIComponent),
    );
    const body = fc.oneof(
      fc.constant(undefined),
      fc.json().map((json) => Buffer.from(json)),
      fc.string().map((text) => Buffer.from(text)),
      fc.constant(Buffer.from('{"data": {"__proto__": {"polluted": true}}, "options": {"cas": "x"}}')),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'LIST', 'POST', 'PUT', 'PATCH', 'DELETE'),
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.string({ maxLength: 12 }),
        body,
        fc.constantFrom('application/json', 'application/merge-patch+json', 'text/plain'),
        async (method, segments, query, raw, type) => {
          const answer = await send({
            method,
            path: `/v1/${segments.join('/')}?${encodeURIComponent(query)}`,
            token: root,
            rawBody: raw,
            headers: { 'Content-Type': type },
          });
          expect(answer.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
    expect(started.logs.filter((entry) => entry.level === 'error')).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('request log', () => {
  it('logs one line per request with method, path and status, never a token or a secret', async () => {
    const before = started.logs.length;
    await send({
      method: 'POST',
      path: '/v1/secret/data/logged?version=1',
      token: root,
      body: { data: { password: 'hunter3' } },
    });
    await send({ path: '/v1/secret/data/logged', token: 'sr.wrong-token-value' });
    const lines = started.logs.slice(before);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 'info', method: 'POST', path: '/v1/secret/data/logged', status: 200 });
    expect(lines[0]!.accessor).toEqual(expect.any(String));
    expect(lines[1]).toMatchObject({ method: 'GET', status: 403 });
    const everything = JSON.stringify(started.logs);
    for (const secret of [root, 'sr.wrong-token-value', 'hunter2', 'hunter3', 'version=1'])
      expect(everything).not.toContain(secret);
  });
});
