// The audit file device: one request and one response entry per request in Vault's shape, every secret string
// HMAC'd, sys/audit-hash to find a value in the log, and requests refused when the device cannot write.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAws, IdentityDocumentSigner } from '../../src/testing/index.js';
import { createServer } from '../../src/server/index.js';
import { builtCli, dataDir, request, startServer, type Started } from './harness.js';

let started: Started;
let file: string;
const send = (options: Parameters<typeof request>[1]) => request(started.url, options);
const entries = () =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, any>);

beforeAll(async () => {
  file = join(mkdtempSync(join(tmpdir(), 'strongroom-audit-')), 'audit.log');
  started = await startServer({ auditFile: file, rootToken: 'sr.audit-root' });
});

afterAll(() => started?.stop());

describe('the audit file', () => {
  it('has one request and one response entry per request, with no secret in clear', async () => {
    const write = await send({
      method: 'POST',
      path: '/v1/secret/data/app/db',
      token: 'sr.audit-root',
      body: { data: { password: 'hunter2' } },
    });
    const created = await send({
      method: 'POST',
      path: '/v1/auth/token/create',
      token: 'sr.audit-root',
      body: { policies: ['default'] },
    });
    expect(write.status).toBe(200);
    const logged = entries();
    expect(logged.map((entry) => `${entry.type} ${entry.request.path}`)).toEqual([
      'request secret/data/app/db',
      'response secret/data/app/db',
      'request auth/token/create',
      'response auth/token/create',
    ]);
    const [request, response] = logged;
    expect(request!.request).toMatchObject({
      id: response!.request.id,
      operation: 'update',
      mount_type: 'kv',
      path: 'secret/data/app/db',
      remote_address: '127.0.0.1',
      namespace: { id: 'root' },
    });
    expect(request!.request.data.data.password).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(request!.auth).toMatchObject({ display_name: 'root', policies: ['root'] });
    expect(response!.response.data.version).toBe(1);
    expect(response!.response.data.created_time).toMatch(/^hmac-sha256:/);
    expect(logged[3]!.response.auth.client_token).toMatch(/^hmac-sha256:/);
    const text = readFileSync(file, 'utf8');
    for (const secret of ['hunter2', 'sr.audit-root', created.json.auth.client_token, created.json.auth.accessor])
      expect(text).not.toContain(secret);
  });

  it('logs refusals with their error', async () => {
    await send({ path: '/v1/secret/data/app/db', token: 'sr.wrong' });
    const last = entries().at(-1)!;
    expect(last).toMatchObject({ type: 'response', error: 'permission denied', response: { status_code: 403 } });
    expect(JSON.stringify(last)).not.toContain('sr.wrong');
  });

  it('sys/audit lists the device and sys/audit-hash gives the HMAC written for a value', async () => {
    expect((await send({ path: '/v1/sys/audit', token: 'sr.audit-root' })).json.data['file/']).toMatchObject({
      type: 'file',
      options: { file_path: file },
    });
    const hash = await send({
      method: 'POST',
      path: '/v1/sys/audit-hash/file',
      token: 'sr.audit-root',
      body: { input: 'hunter2' },
    });
    expect(readFileSync(file, 'utf8')).toContain(hash.json.data.hash);
    expect(
      (await send({ method: 'POST', path: '/v1/sys/audit-hash/nowhere', token: 'sr.audit-root', body: { input: 'x' } }))
        .status,
    ).toBe(400);
  });
});

describe('an audit file that cannot be opened at start', () => {
  // A mistyped path is a configuration error: the start fails with it, as for a wrong root key, instead of a server
  // that answers 500 to everything, its health check included.
  it('stops createServer and the command with a clear error', async () => {
    const app = createServer({ auditFile: '/nonexistent-strongroom-folder/audit.log', log: () => undefined });
    await expect(app.ready()).rejects.toThrow(
      /audit file .*\/nonexistent-strongroom-folder\/audit\.log.* cannot be opened/,
    );
    await expect(app.listen({ port: 0 })).rejects.toThrow(/cannot be opened/);

    const child = spawn(process.execPath, [await builtCli(), 'server'], {
      env: {
        ...process.env,
        PORT: '0',
        STRONGROOM_DATA_DIR: dataDir(),
        STRONGROOM_AUDIT_FILE: '/nonexistent-strongroom-folder/audit.log',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(1);
    expect(output).toMatch(/strongroom: .*audit file .* cannot be opened/);
    expect(output).not.toContain('listening on');
  }, 60_000);
});

describe('an audit device that cannot write', () => {
  it.each([['a full device', '/dev/full']])('turns requests away with a clear error: %s', async (_, path) => {
    const blocked = await startServer({ auditFile: path, rootToken: 'sr.blocked-root' });
    try {
      const write = await request(blocked.url, {
        method: 'POST',
        path: '/v1/secret/data/x',
        token: 'sr.blocked-root',
        body: { data: { a: 'b' } },
      });
      expect(write.status).toBe(500);
      expect(write.json).toEqual({ errors: ['audit log could not be written: the request is refused'] });
      // Nothing happened: with the device gone, the server reads nothing either.
      expect((await request(blocked.url, { path: '/v1/secret/data/x', token: 'sr.blocked-root' })).status).toBe(500);
      expect(await blocked.app.kv.read('x').catch(() => undefined)).toBeUndefined();
    } finally {
      await blocked.stop();
    }
  });
});

describe('a body nested deeper than any engine accepts', () => {
  // The audit entry is written before the request runs; a body too deep to serialise used to fail it with a 500,
  // for anyone, no token needed. It is a 400 at the edge, as the engines answer it without an audit device.
  it.each([
    ['a KV write without a token', '/v1/secret/data/deep', undefined],
    ['a login', '/v1/auth/aws/login', undefined],
    ['a token creation', '/v1/auth/token/create', 'sr.audit-root'],
    ['a policy write', '/v1/sys/policies/acl/deep', 'sr.audit-root'],
  ])('is a 400, not a 500: %s', async (_, path, token) => {
    const depth = 5000;
    const rawBody = `{"data":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const before = entries().length;
    const answer = await send({ method: 'POST', path, rawBody, ...(token ? { token } : {}) });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ errors: ['the request body is nested more than 256 levels deep'] });
    expect(started.logs.filter((entry) => entry.status === 500)).toEqual([]);
    // Refused before anything ran: nothing to audit.
    expect(entries().length).toBe(before);
  });
});

describe('an ec2 login in the audit file', () => {
  // The nonce an ec2 login generates is the instance's credential for its later logins: with it, whoever reads the
  // instance's (unsecret) identity document could log in as the instance. Other token metadata stays readable.
  it("shows the token metadata but not the nonce, in the login answer and in the token holder's requests", async () => {
    const aws = await FakeAws.start();
    const auditFile = join(mkdtempSync(join(tmpdir(), 'strongroom-audit-')), 'audit.log');
    const server = await startServer({ auditFile, rootToken: 'sr.nonce-root' });
    try {
      const account = '111122223333';
      aws.createUser({ accountId: account, userName: 'strongroom' });
      const key = aws.createAccessKey(account, 'strongroom');
      const instance = aws.addInstance({
        accountId: account,
        region: 'eu-west-1',
        instanceId: 'i-0123456789abcdef0',
        imageId: 'ami-0abc1234',
      });
      const signer = await IdentityDocumentSigner.create();
      const admin = (path: string, body: object) =>
        request(server.url, { method: 'POST', path: `/v1/auth/aws/${path}`, token: 'sr.nonce-root', body });
      await admin('config/client', {
        access_key: key.accessKeyId,
        secret_key: key.secretAccessKey,
        endpoint: aws.url,
        iam_endpoint: aws.url,
        sts_endpoint: aws.url,
      });
      await admin('config/certificate/test-ca', { aws_public_cert: signer.certificatePem, type: 'pkcs7' });
      await admin('role/web', { auth_type: 'ec2', bound_ami_id: ['ami-0abc1234'], token_policies: ['default'] });

      const login = await request(server.url, {
        method: 'POST',
        path: '/v1/auth/aws/login',
        body: { role: 'web', pkcs7: signer.sign(instance).pkcs7 },
      });
      expect(login.status).toBe(200);
      const nonce: string = login.json.auth.metadata.nonce;
      expect(nonce).toMatch(/\S{16,}/);
      expect(
        (await request(server.url, { path: '/v1/auth/token/lookup-self', token: login.json.auth.client_token })).status,
      ).toBe(200);

      const text = readFileSync(auditFile, 'utf8');
      expect(text).not.toContain(nonce);
      const logged = text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, any>);
      const loginAnswer = logged.find((entry) => entry.type === 'response' && entry.request.path === 'auth/aws/login')!;
      expect(loginAnswer.response.auth.metadata).toMatchObject({
        role: 'web',
        auth_type: 'ec2',
        account_id: account,
        nonce: expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/),
      });
      const lookup = logged.find(
        (entry) => entry.type === 'request' && entry.request.path === 'auth/token/lookup-self',
      )!;
      expect(lookup.auth.metadata).toMatchObject({ role: 'web', nonce: expect.stringMatching(/^hmac-sha256:/) });
      const hash = await request(server.url, {
        method: 'POST',
        path: '/v1/sys/audit-hash/file',
        token: 'sr.nonce-root',
        body: { input: nonce },
      });
      expect(lookup.auth.metadata.nonce).toBe(hash.json.data.hash);
    } finally {
      await server.stop();
      await aws.stop();
    }
  });
});

describe('an error that quotes what the client sent', () => {
  // Error text stays readable in the log, but a value the client sent, quoted back in it, is hashed like everywhere
  // else: a secret written in the wrong shape (`"data": "<password>"`) must not land in the log in clear.
  it.each([
    [
      'a KV value that is not an object',
      '/v1/secret/data/app/wrong',
      { data: 'hunter2-in-the-wrong-place' },
      'hunter2-in-the-wrong-place',
    ],
    [
      'a nonce given as a list',
      '/v1/auth/aws/login',
      { role: 'web', pkcs7: 'x', nonce: ['a-secret-nonce'] },
      'a-secret-nonce',
    ],
    [
      'a duration that is not one',
      '/v1/auth/token/create',
      { ttl: 'sr.pasted-token-by-mistake' },
      'sr.pasted-token-by-mistake',
    ],
  ])('hashes it: %s', async (_, path, body, secret) => {
    const answer = await send({ method: 'POST', path, token: 'sr.audit-root', body });
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0]).toContain(secret);
    const last = entries().at(-1)!;
    expect(last.type).toBe('response');
    expect(JSON.stringify(last)).not.toContain(secret);
    const hash = await send({
      method: 'POST',
      path: '/v1/sys/audit-hash/file',
      token: 'sr.audit-root',
      body: { input: secret },
    });
    expect(last.error).toContain(hash.json.data.hash);
  });
});
