import type { AuthEngineOptions } from '../../../src/auth/context/engine-options.js';
import type { AuthGrant, EngineRequest, EngineResponse } from '../../../src/core/framework/request.js';
import type { InstanceDescription } from '../../../src/ports/cloud.js';
import type { Storage } from '../../../src/ports/storage.js';
import { sampleFile, type SampleName } from '../../support/aws-fixtures.js';
import { FAKE_ACCOUNT } from '../../support/fake-cloud.js';
import { buildCms, createSigner, type TestSigner } from '../../support/synthetic-cms.js';
import { adminHarness, dataOf } from '../admin-harness.js';

/** Login tests: the admin harness plus login and renewal helpers, genuine AWS samples and synthetic documents. */

export interface Sample {
  name: SampleName;
  instanceId: string;
  accountId: string;
  region: string;
  imageId: string;
  pendingTime: string;
}

export const TELEPORT_2021: Sample = {
  name: 'teleport-us-west-2-2021',
  instanceId: 'i-078517ca8a70a1dde',
  accountId: '278576220453',
  region: 'us-west-2',
  imageId: 'ami-0fa9e1f64142cde17',
  pendingTime: '2021-09-03T21:25:44Z',
};

export const IID_VERIFY_2018: Sample = {
  name: 'iid-verify-us-west-2-2018',
  instanceId: 'i-0a30e04d85e6f8793',
  accountId: '692406183521',
  region: 'us-west-2',
  imageId: 'ami-6b8cef13',
  pendingTime: '2018-05-09T12:30:58Z',
};

export const GO_2016: Sample = {
  name: 'pkcs7-go-us-east-1-2016',
  instanceId: 'i-f79fe56c',
  accountId: '121659014334',
  region: 'us-east-1',
  imageId: 'ami-fce3c696',
  pendingTime: '2016-04-08T03:01:38Z',
};

/** A genuine sample's login field, with newlines removed as clients send it. */
export function sampleField(sample: Sample, file: 'pkcs7' | 'rsa2048' | 'signature' | 'document'): string {
  const text = sampleFile(sample.name, file);
  return file === 'document' ? Buffer.from(text).toString('base64') : text.replace(/\s+/g, '');
}

/** The grant fields of a role whose token settings are all defaults, besides the TTLs. */
export const DEFAULT_TOKEN_FIELDS = {
  period: 0,
  explicit_max_ttl: 0,
  num_uses: 0,
  no_default_policy: false,
  token_type: 'default',
  bound_cidrs: [],
  renewable: true,
} as const;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let signer: Promise<TestSigner> | undefined;

/** One throw-away signing certificate for all synthetic documents of a test run (key generation is slow). */
export function testSigner(): Promise<TestSigner> {
  signer ??= createSigner({
    name: 'strongroom test CA',
    notBefore: new Date('2010-01-01T00:00:00Z'),
    notAfter: new Date('2100-01-01T00:00:00Z'),
    serialNumber: '5eed5eed',
  });
  return signer;
}

/** The identity document of a synthetic instance; defaults give a running fake-cloud instance in us-east-1. */
export interface SyntheticIdentity {
  instanceId: string;
  accountId: string;
  region: string;
  imageId: string;
  pendingTime: string;
}

export const SYNTHETIC: SyntheticIdentity = {
  instanceId: 'i-0123456789abcdef0',
  accountId: FAKE_ACCOUNT,
  region: 'us-east-1',
  imageId: 'ami-12345678',
  pendingTime: '2026-01-01T00:00:00Z',
};

/** An rsa2048-style PKCS#7 of a synthetic identity document, signed by the test signer. */
export async function syntheticPkcs7(identity: Partial<SyntheticIdentity> = {}): Promise<string> {
  const document = { ...SYNTHETIC, ...identity, privateIp: '10.0.0.1', version: '2017-09-30' };
  return buildCms({
    content: Buffer.from(JSON.stringify(document, null, 2)),
    signer: await testSigner(),
    algorithmProtection: true,
  });
}

export function loginHarness(options: Partial<AuthEngineOptions> & { storage?: Storage } = {}) {
  const h = adminHarness(options);
  const login = (body: Record<string, unknown>, extra: Partial<EngineRequest> = {}) =>
    h.call('POST', 'login', body, extra);
  return {
    ...h,
    login,
    /** Registers the test signer's certificate so that synthetic documents verify. */
    async trustTestSigner(): Promise<void> {
      const { trusted } = await testSigner();
      const response = await h.write('config/certificate/test-ca', { aws_public_cert: trusted.pem, type: 'pkcs7' });
      if (response.status !== 204) throw new Error(`registering the test signer failed: ${JSON.stringify(response)}`);
    },
    /** A running instance in the fake cloud, with the synthetic identity's (or a sample's) id, account, region and AMI. */
    addInstance(
      identity: Pick<SyntheticIdentity, 'instanceId' | 'accountId' | 'region' | 'imageId'>,
      extra: Partial<InstanceDescription> = {},
    ) {
      return h.cloud.addInstance(
        { instanceId: identity.instanceId, accountId: identity.accountId, imageId: identity.imageId, ...extra },
        { region: identity.region },
      );
    },
    /** Makes the fake cloud act for a genuine sample's account, seeds its instance and sets the clock near pendingTime. */
    seedSample(sample: Sample, extra: Partial<InstanceDescription> = {}) {
      h.cloud.ownAccountId = sample.accountId;
      h.clock.set(new Date(new Date(sample.pendingTime).getTime() + 10 * 60_000));
      return this.addInstance(sample, extra);
    },
    async role(name: string, body: Record<string, unknown>): Promise<void> {
      const response = await h.write(`role/${name}`, body);
      if (response.status >= 300) throw new Error(`writing role ${name} failed: ${JSON.stringify(response)}`);
    },
  };
}

export type LoginHarness = ReturnType<typeof loginHarness>;

export function grantOf(response: EngineResponse): AuthGrant {
  const auth = response.body?.auth;
  if (response.status !== 200 || !auth) throw new Error(`expected a grant, got ${JSON.stringify(response)}`);
  return auth;
}

/** A login's failure as [status, message]. */
export function refusalOf(response: EngineResponse): [number, string] {
  const errors = response.body?.errors;
  if (response.status < 400 || errors?.length !== 1)
    throw new Error(`expected one error, got ${JSON.stringify(response)}`);
  return [response.status, errors[0]!];
}

export async function accessListEntry(
  h: LoginHarness,
  instanceId: string,
): Promise<Record<string, unknown> | undefined> {
  const response = await h.read(`identity-accesslist/${instanceId}`);
  return response.status === 404 ? undefined : dataOf(response);
}
