// ec2 logins through AuthMethod.handle() with the real AWS provider against strongroom/testing's fake AWS over
// loopback HTTP: the running-instance cache off (every login describes the instance) and on (instance_cache_seconds).
import { AuthMethod, MemoryStorage } from 'strongroom';
import { AwsCloudProvider } from 'strongroom/aws';
import { FakeAws, IdentityDocumentSigner } from 'strongroom/testing';
import { batched, compare } from '../harness/harness.mjs';
import { expectOk } from '../harness/fixtures.mjs';

const BATCH = 10;
const ACCOUNT = '111122223333';

async function ec2LoginAgainstFake(aws, signer, instanceCacheSeconds) {
  const key = aws.createAccessKey(ACCOUNT, 'strongroom');
  const instance = aws.addInstance({
    accountId: ACCOUNT,
    region: 'eu-west-1',
    instanceId: `i-0000000000000000${instanceCacheSeconds ? 2 : 1}`,
    imageId: 'ami-0abc1234',
  });
  // The fake does not throttle here and the provider's limit is lifted: this measures the cost of the call itself.
  const cloud = new AwsCloudProvider({
    env: {},
    imdsEndpoint: 'http://127.0.0.1:9',
    rateLimit: { perSecond: 1e9, burst: 1e9 },
  });
  const auth = new AuthMethod({ storage: new MemoryStorage(), cloud, env: {} });
  const post = (path, body) => auth.handle({ method: 'POST', path, body });
  const endpoints = { endpoint: aws.url, iam_endpoint: aws.url, sts_endpoint: aws.url };
  await expectOk(
    post('config/client', {
      access_key: key.accessKeyId,
      secret_key: key.secretAccessKey,
      ...endpoints,
      instance_cache_seconds: instanceCacheSeconds,
    }),
  );
  await expectOk(post('config/certificate/bench-ca', { aws_public_cert: signer.certificatePem, type: 'pkcs7' }));
  await expectOk(post('role/web', { auth_type: 'ec2', bound_ami_id: 'ami-0abc1234' }));
  const { pkcs7 } = signer.sign(instance);
  const body = { role: 'web', pkcs7, nonce: 'bench-nonce' };
  return async () => {
    const answer = await post('login', body);
    if (answer.status !== 200) throw new Error(`login failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  };
}

export async function awsBenchmarks(log) {
  log('aws: ec2 logins against the fake AWS over HTTP, instance cache off and on');
  const aws = await FakeAws.start();
  try {
    aws.createUser({ accountId: ACCOUNT, userName: 'strongroom' });
    const signer = await IdentityDocumentSigner.create();
    const off = await ec2LoginAgainstFake(aws, signer, 0);
    const on = await ec2LoginAgainstFake(aws, signer, 60);
    const result = await compare(
      { name: 'cache on', fn: batched(BATCH, on), batch: BATCH },
      { name: 'cache off', fn: batched(BATCH, off), batch: BATCH },
    );
    return [
      {
        section: 'aws',
        name: 'ec2 login vs fake EC2 over HTTP: cache on (instance_cache_seconds=60) vs off, logins/s',
        unit: 'logins/s',
        result,
        limitName: 'cache off',
        goal: { kind: 'info' },
      },
    ];
  } finally {
    await aws.stop();
  }
}
