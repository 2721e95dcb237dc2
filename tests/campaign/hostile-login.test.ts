import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineRequest, EngineResponse } from '../../src/core/framework/request.js';
import type { FakeCloud } from '../support/fake-cloud.js';
import { SYNTHETIC, syntheticPkcs7, testSigner } from '../auth/login/login-harness.js';
import { mutatedRequest, oddValue } from './support/hostile.js';
import { CAMPAIGN_TIMEOUT, propertyRuns } from './support/scale.js';
import { authTarget, CLIENT_STATUSES, expectWellFormed, prototypeState } from './support/targets.js';

/**
 * Hostile input at the unauthenticated door: `POST login` bodies with any field replaced, genuine PKCS#7 documents
 * damaged, STS answers of any shape, and grants handed to renew() with any part replaced. Never a fault.
 */

const b64 = (text: string) => Buffer.from(text).toString('base64');
const IAM_FIELDS = {
  iam_http_request_method: 'POST',
  iam_request_url: b64('https://sts.amazonaws.com/'),
  iam_request_body: b64('Action=GetCallerIdentity&Version=2011-06-15'),
  iam_request_headers: {
    Authorization:
      'AWS4-HMAC-SHA256 Credential=AKIAX/20260301/us-east-1/sts/aws4_request, SignedHeaders=host;x-amz-date;x-service-cloud-iam-server-id, Signature=00',
    'X-Amz-Date': '20260301T000000Z',
    'X-Service-Cloud-IAM-Server-ID': 'vault.example.com',
  },
};

/** An engine able to log in: the test signer trusted, an ec2 role for the synthetic instance, an iam role for the fake caller. */
async function loginTarget() {
  const target = await authTarget();
  const { trusted } = await testSigner();
  await target.handle({ method: 'POST', path: 'config/certificate/test-ca', body: { aws_public_cert: trusted.pem } });
  await target.handle({
    method: 'POST',
    path: 'role/ec2',
    body: { auth_type: 'ec2', bound_account_id: SYNTHETIC.accountId, role_tag: 'T' },
  });
  await target.handle({
    method: 'POST',
    path: 'role/client',
    body: { auth_type: 'iam', bound_iam_principal_arn: 'arn:aws:iam::123456789012:user/*' },
  });
  await target.handle({
    method: 'POST',
    path: 'config/client',
    body: { iam_server_id_header_value: 'vault.example.com', access_key: '', secret_key: '' },
  });
  const pkcs7 = await syntheticPkcs7();
  const templates: EngineRequest[] = [
    { method: 'POST', path: 'login', body: { role: 'ec2', pkcs7 } },
    { method: 'POST', path: 'login', body: { role: 'ec2', pkcs7, nonce: 'n' } },
    { method: 'POST', path: 'login', body: { role: 'ec2', identity: b64('{}'), signature: b64('x') } },
    { method: 'POST', path: 'login', body: { role: 'client', ...IAM_FIELDS } },
    {
      method: 'POST',
      path: 'login',
      body: { ...IAM_FIELDS, iam_request_headers: b64(JSON.stringify(IAM_FIELDS.iam_request_headers)) },
    },
  ];
  const grant = (await target.handle(templates[3] as EngineRequest)).body as unknown as {
    auth: Record<string, unknown>;
  };
  return { target, templates, grant: grant.auth };
}

describe('hostile logins and renewals', async () => {
  const { target, templates, grant } = await loginTarget();
  const login = [
    'role',
    'pkcs7',
    'identity',
    'signature',
    'nonce',
    'iam_http_request_method',
    'iam_request_url',
    'iam_request_body',
    'iam_request_headers',
  ];

  it(
    'POST login: always a 2xx or a 4xx with a message (502 only from the fake cloud), no pollution, no unsafe key',
    async () => {
      const prototypes = prototypeState();
      await fc.assert(
        fc.asyncProperty(mutatedRequest(templates, login), async (request) => {
          const faults = target.faults.length;
          const unsafe = target.audited.unsafe.length;
          expectWellFormed(await target.handle(request), new Set([...CLIENT_STATUSES, 502]));
          expect(prototypeState()).toEqual(prototypes);
          expect(target.faults.slice(faults)).toEqual([]);
          expect(target.audited.unsafe.slice(unsafe)).toEqual([]);
        }),
        propertyRuns(300, 10_000),
      );
    },
    CAMPAIGN_TIMEOUT,
  );

  it(
    'a genuine PKCS#7 with bytes flipped, cut or inserted is refused (400, 403), unless only unsigned parts changed',
    async () => {
      const der = Buffer.from(await syntheticPkcs7(), 'base64');
      const content = Buffer.from(`"instanceId": "${SYNTHETIC.instanceId}"`);
      const mutation = fc.oneof(
        fc.record({ at: fc.nat(der.length - 1), xor: fc.integer({ min: 1, max: 255 }) }).map(({ at, xor }) => {
          const copy = Buffer.from(der);
          copy.writeUInt8((copy[at] as number) ^ xor, at);
          return copy;
        }),
        fc.nat(der.length - 1).map((end) => der.subarray(0, end)),
        fc
          .tuple(fc.nat(der.length), fc.uint8Array({ minLength: 1, maxLength: 8 }))
          .map(([at, bytes]) => Buffer.concat([der.subarray(0, at), bytes, der.subarray(at)])),
      );
      await fc.assert(
        fc.asyncProperty(mutation, async (bytes) => {
          const faults = target.faults.length;
          const response = await target.handle({
            method: 'POST',
            path: 'login',
            body: { role: 'ec2', pkcs7: bytes.toString('base64') },
          });
          // Past authentication, the login goes on to the cloud (502 here: the fake refuses the account's STS role).
          expectWellFormed(response, new Set([400, 403, 502]));
          if (response.status === 502) expect(bytes.includes(content)).toBe(true);
          expect(target.faults.slice(faults)).toEqual([]);
        }),
        propertyRuns(200, 10_000),
      );
    },
    CAMPAIGN_TIMEOUT,
  );

  it(
    'whatever STS answers (malformed XML, entities, wrong types, statuses) is a 403 or a 502, never a fault',
    async () => {
      const xml = fc.oneof(
        fc.constantFrom(
          '<GetCallerIdentityResponse><GetCallerIdentityResult/></GetCallerIdentityResponse>',
          '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><GetCallerIdentityResponse>&e;</GetCallerIdentityResponse>',
          '<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>arn:aws:iam::123456789012:user/client</Arn><UserId>AIDA</UserId><Account>999999999999</Account></GetCallerIdentityResult></GetCallerIdentityResponse>',
          '<GetCallerIdentityResponse><GetCallerIdentityResult><Arn><x>1</x></Arn><UserId>1</UserId><Account>1</Account></GetCallerIdentityResult></GetCallerIdentityResponse>',
          '<ErrorResponse><Error><Code>SignatureDoesNotMatch</Code><Message><![CDATA[x]]></Message></Error></ErrorResponse>',
          '<ErrorResponse><Error><Code><a/></Code></Error></ErrorResponse>',
          '<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>arn:aws:iam::123456789012:root</Arn><UserId>123456789012</UserId><Account>123456789012</Account></GetCallerIdentityResult></GetCallerIdentityResponse>',
        ),
        fc.string({ maxLength: 200 }).map((text) => `<GetCallerIdentityResponse>${text}</GetCallerIdentityResponse>`),
        fc.string({ maxLength: 100 }),
      );
      const status = fc.constantFrom(200, 200, 200, 301, 400, 403, 404, 429, 500, 503);
      const type = fc.constantFrom('text/xml', 'text/xml', 'text/xml; charset=utf-8', 'application/json', '');
      const cloud = target.cloud as FakeCloud;
      const answer = cloud.forwardAnswer;
      await fc.assert(
        fc.asyncProperty(xml, status, type, async (body, code, contentType) => {
          cloud.forwardAnswer = () => ({ status: code, headers: { 'content-type': contentType }, body });
          const faults = target.faults.length;
          expectWellFormed(await target.handle(templates[3] as EngineRequest), new Set([200, 400, 403, 502]));
          expect(target.faults.slice(faults)).toEqual([]);
        }),
        propertyRuns(200, 10_000),
      );
      cloud.forwardAnswer = answer;
    },
    CAMPAIGN_TIMEOUT,
  );

  it(
    'renew(): a grant with any part replaced is a 2xx or a 4xx, never a fault',
    async () => {
      expect(grant).toBeDefined();
      const renew = target.renew as (grant: unknown) => Promise<EngineResponse>;
      const fields = [
        'policies',
        'metadata',
        'internal_data',
        'internal_data.role_name',
        'internal_data.role_id',
        'internal_data.auth_type',
        'internal_data.client_arn',
        'internal_data.account_id',
      ];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...fields), oddValue, async (field, value) => {
          const [outer, inner] = field.split('.') as [string, string | undefined];
          const changed =
            inner === undefined
              ? { ...grant, [outer]: value }
              : { ...grant, [outer]: { ...(grant[outer] as object), [inner]: value } };
          const faults = target.faults.length;
          expectWellFormed(await renew(changed), new Set([...CLIENT_STATUSES, 502]));
          expect(target.faults.slice(faults)).toEqual([]);
        }),
        propertyRuns(200, 5000),
      );
      for (const junk of [undefined, null, 5, 'grant', [], {}, { internal_data: null }]) {
        expectWellFormed(await renew(junk), CLIENT_STATUSES);
      }
    },
    CAMPAIGN_TIMEOUT,
  );
});
