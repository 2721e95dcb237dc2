// ec2 and iam logins end to end through AuthMethod.handle(), with the cloud answered in-process by cloudDouble.
import { AuthMethod, ManualClock, MemoryStorage } from 'strongroom';
import { buildIamLoginBody } from 'strongroom/aws';
import { batched, interleaved, spread } from '../harness/harness.mjs';
import { cloudDouble, ROLE_ARN } from './cloud-double.mjs';
import { expectOk } from '../harness/fixtures.mjs';
import { sample } from './verify.mjs';

const BATCH = 20;
const IAM_GOAL = 5_000;

async function expectGrant(pending) {
  const response = await pending;
  if (response.status !== 200 || !response.body?.auth)
    throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.auth;
}

/**
 * The genuine rsa2048 sample (signed by AWS, so its signature check is the real one), with the clock just after its
 * pendingTime; the instance re-authenticates with the nonce its first login was given, as a real client does.
 */
export async function ec2Login() {
  const { rsa2048, document } = sample();
  const cloud = cloudDouble({
    instanceId: document.instanceId,
    state: 'running',
    accountId: document.accountId,
    imageId: document.imageId,
    tags: {},
  });
  const clock = new ManualClock(new Date(new Date(document.pendingTime).getTime() + 10 * 60_000));
  const auth = new AuthMethod({ storage: new MemoryStorage(), clock, cloud, env: {} });
  await expectOk(
    auth.handle({
      method: 'POST',
      path: 'role/bench-ec2',
      body: { auth_type: 'ec2', bound_ami_id: document.imageId, token_policies: 'app' },
    }),
  );
  const pkcs7 = rsa2048.replace(/\s+/g, '');
  const first = await expectGrant(auth.handle({ method: 'POST', path: 'login', body: { role: 'bench-ec2', pkcs7 } }));
  const body = { role: 'bench-ec2', pkcs7, nonce: first.metadata.nonce };
  return { cloud, login: () => expectGrant(auth.handle({ method: 'POST', path: 'login', body })) };
}

/** A GetCallerIdentity request signed as a client signs it; STS's answer comes from the double without a round trip. */
export async function iamLogin() {
  const cloud = cloudDouble({
    instanceId: 'i-none',
    state: 'running',
    accountId: '123456789012',
    imageId: 'ami-none',
    tags: {},
  });
  const auth = new AuthMethod({ storage: new MemoryStorage(), cloud, env: {} });
  await expectOk(
    auth.handle({
      method: 'POST',
      path: 'role/bench-iam',
      body: { auth_type: 'iam', bound_iam_principal_arn: ROLE_ARN, token_policies: 'app' },
    }),
  );
  const body = buildIamLoginBody({
    credentials: { accessKeyId: 'AKIABENCHKEY00000001', secretAccessKey: 'bench-secret' },
    role: 'bench-iam',
  });
  await expectGrant(auth.handle({ method: 'POST', path: 'login', body }));
  return { cloud, login: () => expectGrant(auth.handle({ method: 'POST', path: 'login', body })) };
}

export async function loginBenchmarks(log) {
  log('login: ec2 and iam logins end to end (in-process cloud double)');
  const ec2 = await ec2Login();
  const iam = await iamLogin();
  const [ec2Rates, iamRates] = await interleaved([
    { name: 'ec2 login', fn: batched(BATCH, ec2.login), batch: BATCH },
    { name: 'iam login', fn: batched(BATCH, iam.login), batch: BATCH },
  ]);
  if (ec2.cloud.calls.describeInstance === 0 || iam.cloud.calls.forwardCallerIdentity === 0)
    throw new Error('the logins never reached the cloud double');
  return [
    {
      section: 'login',
      name: 'ec2 login end to end (genuine rsa2048 document, nonce re-authentication)',
      unit: 'logins/s',
      result: { subject: spread(ec2Rates) },
      goal: { kind: 'info' },
    },
    {
      section: 'login',
      name: 'iam login end to end, one core, STS answered in-process',
      unit: 'logins/s',
      result: { subject: spread(iamRates) },
      goal: { kind: 'min', value: IAM_GOAL },
    },
  ];
}
