import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import { AuthEngine } from '../../src/auth/auth-engine.js';
import type { EngineRequest, EngineResponse } from '../../src/core/framework/request.js';
import { KvEngine } from '../../src/kv/index.js';
import { FaultyStorage } from '../support/faulty-storage.js';
import { FakeCloud } from '../support/fake-cloud.js';
import { syntheticPkcs7, testSigner, SYNTHETIC } from '../auth/login/login-harness.js';
import { testStorage } from '../support/test-storage.js';

/**
 * Secrets never leave through an answer, an error or the service's logs (onInternalError, including the causes it is
 * handed): requests write and present canary secrets, every storage call of them is made to fail in turn, and every
 * answer and every report is searched for the canaries.
 */

const SECRET_KEY = 'SecretKeyCanary0/7f3aWJalrXUtnFEMIK7MDENG';
const KV_SECRET = 'KvDataCanary-91b2';
const NONCE = 'NonceCanary-5d1e';
const SESSION_TOKEN = 'SessionTokenCanary-3c44';

class Witness {
  readonly answers: string[] = [];
  readonly reports: string[] = [];
  readonly onInternalError = (error: unknown, request: EngineRequest) => {
    // Everything a logger could print: the error with its whole cause chain, and the request it was handed.
    this.reports.push(inspect([error, request], { depth: Infinity, showHidden: true }));
  };
  answer(response: EngineResponse, options: { secretsAllowed?: boolean } = {}): EngineResponse {
    if (!options.secretsAllowed || response.status >= 400) this.answers.push(JSON.stringify(response));
    return response;
  }
  expectNone(...canaries: string[]): void {
    for (const canary of canaries) {
      for (const text of [...this.answers, ...this.reports]) expect(text).not.toContain(canary);
    }
  }
}

/** Runs `act` once per storage call it makes, that call failing, and once cleanly. */
async function everyFault(storage: FaultyStorage, act: () => Promise<void>): Promise<number> {
  let failures = 0;
  for (let n = 1; ; n++) {
    storage.arm(n);
    await act();
    if (!storage.failed) break;
    failures += 1;
  }
  storage.arm(undefined);
  return failures;
}

describe('the auth method never shows secret_key, a role HMAC key, a nonce or a session token', () => {
  it('in answers, errors or reports, through writes, reads, failures and logins', async () => {
    const witness = new Witness();
    const storage = new FaultyStorage(new MemoryStorage());
    const cloud = new FakeCloud();
    cloud.addUserWithKey('ellen', { accessKeyId: 'AKIAOLD', secretAccessKey: SECRET_KEY });
    cloud.addInstance({ instanceId: SYNTHETIC.instanceId, imageId: SYNTHETIC.imageId });
    const auth = new AuthEngine({
      storage,
      cloud,
      env: {},
      clock: new ManualClock('2026-03-01T00:00:00Z'),
      onInternalError: witness.onInternalError,
    });
    const call = async (request: EngineRequest) => witness.answer(await auth.handle(request));
    const { trusted } = await testSigner();
    await call({ method: 'POST', path: 'config/certificate/test-ca', body: { aws_public_cert: trusted.pem } });
    await call({
      method: 'POST',
      path: 'role/web',
      body: { auth_type: 'ec2', bound_account_id: SYNTHETIC.accountId, role_tag: 'T' },
    });
    const hmacKey = JSON.parse(Buffer.from((await storage.inner.get('auth/role/web')) as Uint8Array).toString())
      .hmac_key as string;

    // Refused before any storage call (no authorize callback, so not even an existence check): 400, and no echo.
    const invalid: EngineRequest[] = [
      { method: 'POST', path: 'config/client', body: { secret_key: [SECRET_KEY] } },
      { method: 'POST', path: 'config/client', body: { secret_key: `${SECRET_KEY}${'x'.repeat(2000)}` } },
    ];
    for (const request of invalid) {
      expect(await everyFault(storage, async () => expect((await call(request)).status).toBe(400))).toBe(0);
    }
    const writes: EngineRequest[] = [
      { method: 'POST', path: 'config/client', body: { access_key: 'AKIAOLD', secret_key: SECRET_KEY } },
      { method: 'POST', path: 'role/web', body: { token_ttl: '1h', hmac_key: 'attempt' } },
      { method: 'POST', path: 'role/web/tag', body: { policies: '' } },
      { method: 'POST', path: 'login', body: { role: 'web', pkcs7: await syntheticPkcs7(), nonce: NONCE } },
      { method: 'POST', path: 'config/rotate-root' },
    ];
    for (const request of writes)
      expect(await everyFault(storage, async () => void (await call(request)))).toBeGreaterThan(0);

    // A session token travels in the iam login's headers; STS refusing the request must not echo it either.
    cloud.forwardAnswer = () => ({
      status: 403,
      headers: { 'content-type': 'text/xml' },
      body: `<ErrorResponse><Error><Code>InvalidClientTokenId</Code><Message>bad token</Message></Error></ErrorResponse>`,
    });
    const headers = {
      Authorization: [
        'AWS4-HMAC-SHA256 Credential=ASIAX/20260301/us-east-1/sts/aws4_request, SignedHeaders=host;x-amz-date;x-amz-security-token, Signature=00',
      ],
      'X-Amz-Security-Token': [SESSION_TOKEN],
      'X-Amz-Date': ['20260301T000000Z'],
    };
    const iam = {
      iam_http_request_method: 'POST',
      iam_request_url: Buffer.from('https://sts.amazonaws.com/').toString('base64'),
      iam_request_body: Buffer.from('Action=GetCallerIdentity&Version=2011-06-15').toString('base64'),
    };
    for (const variant of [
      headers,
      { ...headers, 'X-Amz-Bogus': [SESSION_TOKEN] },
      { ...headers, 'X-Amz-Security-Token': [`${SESSION_TOKEN}\r\n`] },
    ]) {
      await everyFault(
        storage,
        async () =>
          void (await call({
            method: 'POST',
            path: 'login',
            body: { ...iam, iam_request_headers: Buffer.from(JSON.stringify(variant)).toString('base64') },
          })),
      );
    }
    for (const path of ['config/client', 'role/web', 'roles', 'identity-accesslist', 'config/certificate/test-ca']) {
      await everyFault(
        storage,
        async () =>
          void (await call({ method: path.endsWith('s') || path === 'identity-accesslist' ? 'LIST' : 'GET', path })),
      );
    }
    expect(witness.reports.length).toBeGreaterThan(0);
    witness.expectNone(SECRET_KEY, hmacKey, SESSION_TOKEN, NONCE, 'fake-secret-');
  });

  it('nor when a stored document is corrupt (the parser quotes the text around the error)', async () => {
    const witness = new Witness();
    const storage = testStorage();
    const auth = new AuthEngine({ storage, cloud: new FakeCloud(), env: {}, onInternalError: witness.onInternalError });
    await storage.put(
      'auth/config/client',
      new TextEncoder().encode(`{"access_key":"AKIA","secret_key": ${SECRET_KEY}}`),
    );
    const response = witness.answer(await auth.handle({ method: 'GET', path: 'config/client' }));
    expect(response.status).toBe(500);
    expect(witness.reports).toHaveLength(1);
    witness.expectNone(SECRET_KEY.slice(0, 10));
  });
});

describe('the KV engine never shows secret data outside a read of it', () => {
  it('in errors or reports, through writes, patches, failing patches, and corrupt records', async () => {
    const witness = new Witness();
    const storage = new FaultyStorage(new MemoryStorage());
    const kv = new KvEngine({ storage, onInternalError: witness.onInternalError });
    const call = async (request: EngineRequest) => witness.answer(await kv.handle(request), { secretsAllowed: true });
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    const jsonPatch = { 'Content-Type': 'application/json-patch+json' };
    const requests: EngineRequest[] = [
      { method: 'POST', path: 'data/app', body: { data: { password: KV_SECRET } } },
      { method: 'PATCH', path: 'data/app', headers: merge, body: { data: { other: KV_SECRET } } },
      {
        method: 'PATCH',
        path: 'data/app',
        headers: jsonPatch,
        body: { data: [{ op: 'test', path: '/password', value: 'wrong' }] },
      },
      {
        method: 'PATCH',
        path: 'data/app',
        headers: jsonPatch,
        body: { data: [{ op: 'copy', from: '/password', path: '/x/y' }] },
      },
      { method: 'GET', path: 'data/app' },
      { method: 'GET', path: 'subkeys/app' },
      { method: 'PUT', path: 'destroy/app', body: { versions: [1] } },
      { method: 'DELETE', path: 'metadata/app' },
    ];
    for (const request of requests) await everyFault(storage, async () => void (await call(request)));
    await storage.inner.put('kv/metadata/broken', new TextEncoder().encode(`{"versions": ${KV_SECRET}}`));
    await call({ method: 'GET', path: 'data/broken' });
    expect(witness.reports.length).toBeGreaterThan(0);
    witness.expectNone(KV_SECRET, KV_SECRET.slice(0, 10));
  });
});
