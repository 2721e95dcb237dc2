import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AuthGrant, EngineRequest, EngineResponse } from '../../../src/core/framework/request.js';
import { dataOf } from '../admin-harness.js';
import { grantOf, IID_VERIFY_2018, loginHarness, sampleField, type LoginHarness } from '../login/login-harness.js';

/**
 * The documents the auth method stores, read back across releases. Each folder fixtures/stored-<release>/ holds every
 * kind of document exactly as that release wrote it (documents/, one file per key below the storage prefix) and the
 * answers that release gave when they were read through handle() and renew() (answers.json). Today's engine, over the
 * same documents, must give the same answers. The folder's README says how it was captured; `CAPTURE_STORED_AUTH=
 * stored-<release> npx vitest run tests/auth/stored/stored-documents.test.ts` captures a new one with the code of the day.
 */

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const PREFIX = 'auth/';
const SAMPLE = IID_VERIFY_2018;
const CERTIFICATE = readFileSync('fixtures/aws-certificates/rsa/us-west-2.pem', 'utf8');
const SERVER_ID = 'vault.example.com';
/** The documents are read an hour after they were written, so that a login rewriting one shows in its answer. */
const READ_AT = new Date(new Date(SAMPLE.pendingTime).getTime() + 70 * 60_000);
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** A request through handle(), or the renewal of the grant the step before answered. */
type Step = { request: EngineRequest } | { renew: true };
interface Answer {
  step: Step;
  response: EngineResponse;
}

/** The cloud and clock every capture and every check starts from: the sample's instance, and an IAM user alice. */
function staged(): { h: LoginHarness; alice: string } {
  const h = loginHarness();
  h.seedSample(SAMPLE, { tags: { Name: 'web-1' } });
  const alice = h.cloud.addPrincipal('user', 'alice');
  h.cloud.stsCaller = { arn: alice.arn, userId: alice.uniqueId, accountId: SAMPLE.accountId };
  return { h, alice: alice.arn };
}

function iamLogin(role: string): EngineRequest {
  const headers = {
    Authorization: [
      `AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/20180509/us-east-1/sts/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-service-cloud-iam-server-id, Signature=0123abcd`,
    ],
    'Content-Type': ['application/x-www-form-urlencoded; charset=utf-8'],
    'X-Amz-Date': ['20180509T124000Z'],
    'X-Service-Cloud-IAM-Server-ID': [SERVER_ID],
  };
  const body = {
    role,
    iam_http_request_method: 'POST',
    iam_request_url: b64('https://sts.amazonaws.com/'),
    iam_request_body: b64('Action=GetCallerIdentity&Version=2011-06-15'),
    iam_request_headers: b64(JSON.stringify(headers)),
  };
  return { method: 'POST', path: 'login', body };
}

/** Every kind of document, written through handle() as a service would: answers the steps that read them back. */
async function writeEveryDocument(h: LoginHarness, alice: string): Promise<Step[]> {
  const account = SAMPLE.accountId;
  const writes: [string, Record<string, unknown>][] = [
    [
      'config/client',
      {
        access_key: 'AKIAEXAMPLE',
        secret_key: 'example-secret',
        sts_endpoint: 'https://sts.example.com',
        max_retries: 3,
        iam_server_id_header_value: SERVER_ID,
        allowed_sts_header_values: 'x-custom-header',
        instance_cache_seconds: 30,
      },
    ],
    [
      'config/identity',
      {
        iam_alias: 'full_arn',
        iam_metadata: 'canonical_arn,client_arn',
        ec2_alias: 'image_id',
        ec2_metadata: 'ami_id,instance_id,region',
      },
    ],
    ['config/certificate/extra', { aws_public_cert: CERTIFICATE, type: 'identity' }],
    ['config/sts/111111111111', { sts_role: 'arn:aws:iam::111111111111:role/reader', external_id: 'ext-1' }],
    ['config/sts/222222222222', { sts_role: 'arn:aws:iam::222222222222:role/reader' }],
    ['config/tidy/identity-accesslist', { safety_buffer: '48h' }],
    ['config/tidy/roletag-denylist', { disable_periodic_tidy: true }],
    [
      'role/app',
      {
        auth_type: 'ec2',
        bound_ami_id: SAMPLE.imageId,
        bound_account_id: account,
        bound_region: SAMPLE.region,
        policies: 'Reader,admin',
        ttl: '1h',
        token_max_ttl: '4h',
        allow_instance_migration: true,
      },
    ],
    [
      'role/Web',
      {
        auth_type: 'ec2',
        bound_ami_id: 'ami-1',
        role_tag: 'VaultRole',
        token_policies: 'p,q',
        token_type: 'service',
        token_num_uses: 3,
        token_period: '30m',
        token_explicit_max_ttl: '2h',
        token_no_default_policy: true,
        token_bound_cidrs: '10.0.0.0/8',
      },
    ],
    [
      'role/dev',
      {
        auth_type: 'iam',
        bound_iam_principal_arn: [alice, `arn:aws:iam::${account}:role/ops-*`],
        token_policies: 'dev',
        token_ttl: '15m',
      },
    ],
    [
      'role/infer',
      {
        auth_type: 'iam',
        inferred_entity_type: 'ec2_instance',
        inferred_aws_region: SAMPLE.region,
        bound_ami_id: SAMPLE.imageId,
        resolve_aws_unique_ids: false,
        bound_iam_principal_arn: `arn:aws:iam::${account}:role/ops`,
      },
    ],
  ];
  for (const [path, body] of writes) expectWritten(await h.write(path, body));
  const tag = dataOf(await h.write('role/web/tag', { policies: 'p', max_ttl: '1h', instance_id: 'i-0abc' }))
    .tag_value as string;
  expectWritten(await h.write(`roletag-denylist/${tag}`));
  const first = grantOf(await h.login({ role: 'app', pkcs7: sampleField(SAMPLE, 'rsa2048') }));

  const read = (path: string): Step => ({ request: { method: 'GET', path } });
  const list = (path: string): Step => ({ request: { method: 'LIST', path } });
  const write = (path: string, body: Record<string, unknown>): Step => ({ request: { method: 'POST', path, body } });
  const relogin = {
    role: 'app',
    identity: sampleField(SAMPLE, 'document'),
    signature: sampleField(SAMPLE, 'signature'),
    nonce: first.metadata.nonce,
  };
  return [
    ...writes.map(([path]) => read(path)),
    list('config/certificates/'),
    list('config/sts/'),
    list('role/'),
    list('roles/'),
    read(`identity-accesslist/${SAMPLE.instanceId}`),
    read(`identity-whitelist/${SAMPLE.instanceId}`),
    list('identity-accesslist/'),
    read(`roletag-denylist/${tag}`),
    list('roletag-denylist/'),
    write('login', relogin),
    { renew: true },
    { request: iamLogin('dev') },
    { renew: true },
    read(`identity-accesslist/${SAMPLE.instanceId}`),
    write('role/app', { token_ttl: '30m' }),
    read('role/app'),
    write('config/client', { max_retries: 5 }),
    read('config/client'),
    write('config/tidy/roletag-denylist', { safety_buffer: '1h' }),
    read('config/tidy/roletag-denylist'),
  ];
}

function expectWritten(response: EngineResponse): void {
  if (response.status >= 300) throw new Error(`a write was refused: ${JSON.stringify(response)}`);
}

/** Runs the steps in order at READ_AT, as JSON would carry their answers. */
async function answer(h: LoginHarness, steps: readonly Step[]): Promise<Answer[]> {
  h.clock.set(READ_AT);
  const answers: Answer[] = [];
  let grant: AuthGrant | undefined;
  for (const step of steps) {
    const response = 'renew' in step ? await h.engine.renew(grant!) : await h.engine.handle(step.request);
    grant = response.body?.auth;
    answers.push(JSON.parse(JSON.stringify({ step, response })) as Answer);
  }
  return answers;
}

function filesBelow(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesBelow(path) : [path];
  });
}

async function keysBelow(h: LoginHarness, folder: string): Promise<string[]> {
  const names = await h.storage.list(folder);
  const nested = await Promise.all(
    names.map((name) => (name.endsWith('/') ? keysBelow(h, folder + name) : [folder + name])),
  );
  return nested.flat();
}

const CAPTURE = process.env.CAPTURE_STORED_AUTH;

describe.runIf(CAPTURE)('capturing the stored documents of today', () => {
  it(`writes fixtures/${CAPTURE}/`, async () => {
    const target = join(FIXTURES, CAPTURE!);
    const { h, alice } = staged();
    const steps = await writeEveryDocument(h, alice);
    for (const key of await keysBelow(h, PREFIX)) {
      const file = join(target, 'documents', `${key.slice(PREFIX.length)}.json`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, (await h.storage.get(key))!);
    }
    writeFileSync(join(target, 'answers.json'), `${JSON.stringify(await answer(h, steps), null, 2)}\n`);
  });
});

const RELEASES = readdirSync(FIXTURES).filter((name) => name.startsWith('stored-') && name !== CAPTURE);

describe.each(RELEASES)('documents as %s stored them', (release) => {
  it('read back through the API, answer as they did then', async () => {
    const folder = join(FIXTURES, release, 'documents');
    const { h } = staged();
    for (const file of filesBelow(folder)) {
      await h.storage.put(PREFIX + relative(folder, file).slice(0, -'.json'.length), readFileSync(file));
    }
    const recorded = JSON.parse(readFileSync(join(FIXTURES, release, 'answers.json'), 'utf8')) as Answer[];
    expect(
      await answer(
        h,
        recorded.map(({ step }) => step),
      ),
    ).toEqual(recorded);
  });
});
