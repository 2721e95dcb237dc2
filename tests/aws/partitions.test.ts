// Every partition: region -> partition -> endpoints, and iam logins of clients signed for an aws-cn and an aws-us-gov
// region, verified by the fake STS; a client-chosen STS region stays inside the configured partition.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AwsCloudProvider, buildIamLoginBody } from '../../src/aws.js';
import { ec2Endpoint, iamEndpoint, partitionOfRegion, regionalStsUrl } from '../../src/adapters/aws/api/endpoints.js';
import { parseArn } from '../../src/adapters/aws/arn.js';
import { AuthMethod } from '../../src/index.js';
import { FakeAws, type FakePartition } from '../../src/testing/index.js';
import { testStorage } from '../support/test-storage.js';
import { noImds, settings } from './world.js';

const table: Array<[region: string, partition: string, ec2: string, sts: string, iam: string, iamRegion: string]> = [
  [
    'eu-west-1',
    'aws',
    'https://ec2.eu-west-1.amazonaws.com/',
    'https://sts.eu-west-1.amazonaws.com/',
    'https://iam.amazonaws.com/',
    'us-east-1',
  ],
  [
    'cn-northwest-1',
    'aws-cn',
    'https://ec2.cn-northwest-1.amazonaws.com.cn/',
    'https://sts.cn-northwest-1.amazonaws.com.cn/',
    'https://iam.cn-north-1.amazonaws.com.cn/',
    'cn-north-1',
  ],
  [
    'us-gov-east-1',
    'aws-us-gov',
    'https://ec2.us-gov-east-1.amazonaws.com/',
    'https://sts.us-gov-east-1.amazonaws.com/',
    'https://iam.us-gov.amazonaws.com/',
    'us-gov-west-1',
  ],
  [
    'us-iso-west-1',
    'aws-iso',
    'https://ec2.us-iso-west-1.c2s.ic.gov/',
    'https://sts.us-iso-west-1.c2s.ic.gov/',
    'https://iam.us-iso-east-1.c2s.ic.gov/',
    'us-iso-east-1',
  ],
  [
    'us-isob-east-1',
    'aws-iso-b',
    'https://ec2.us-isob-east-1.sc2s.sgov.gov/',
    'https://sts.us-isob-east-1.sc2s.sgov.gov/',
    'https://iam.us-isob-east-1.sc2s.sgov.gov/',
    'us-isob-east-1',
  ],
  [
    'eu-isoe-west-1',
    'aws-iso-e',
    'https://ec2.eu-isoe-west-1.cloud.adc-e.uk/',
    'https://sts.eu-isoe-west-1.cloud.adc-e.uk/',
    'https://iam.eu-isoe-west-1.cloud.adc-e.uk/',
    'eu-isoe-west-1',
  ],
  [
    'us-isof-south-1',
    'aws-iso-f',
    'https://ec2.us-isof-south-1.csp.hci.ic.gov/',
    'https://sts.us-isof-south-1.csp.hci.ic.gov/',
    'https://iam.us-isof-south-1.csp.hci.ic.gov/',
    'us-isof-south-1',
  ],
  [
    'eusc-de-east-1',
    'aws-eusc',
    'https://ec2.eusc-de-east-1.amazonaws.eu/',
    'https://sts.eusc-de-east-1.amazonaws.eu/',
    'https://iam.eusc-de-east-1.amazonaws.eu/',
    'eusc-de-east-1',
  ],
];

describe('partition table', () => {
  it.each(table)('%s is in %s', (region, partition, ec2, sts, iam, iamRegion) => {
    expect(partitionOfRegion(region)).toBe(partition);
    expect(ec2Endpoint(settings(), region)).toEqual({ url: new URL(ec2), region });
    expect(regionalStsUrl(region).href).toBe(sts);
    expect(iamEndpoint(settings(), partitionOfRegion(region))).toEqual({ url: new URL(iam), region: iamRegion });
    expect(parseArn(`arn:${partition}:iam::123456789012:role/app`).partition).toBe(partition);
  });

  it('refuses region names outside every partition and malformed ones', () => {
    expect(() => partitionOfRegion('xx-east-1')).toThrow(/belongs to no known partition/);
    expect(() => partitionOfRegion('evil.example.com/x')).toThrow(/invalid region/);
    expect(() => parseArn('arn:aws-mars:iam::123456789012:role/app')).toThrow(/unsupported partition "aws-mars"/);
  });
});

describe('iam login in other partitions', () => {
  let aws: FakeAws;
  beforeAll(async () => {
    aws = await FakeAws.start();
  });
  afterAll(() => aws.stop());

  async function authFor(partition: FakePartition, region: string, clientConfig: object = {}) {
    const accountId = partition === 'aws-cn' ? '123456789012' : '210987654321';
    const operator = aws.createUser({ accountId, userName: `operator-${region}`, partition });
    const operatorKey = aws.createAccessKey(accountId, operator.userName);
    const app = aws.createUser({ accountId, userName: `app-${region}`, partition });
    const appKey = aws.createAccessKey(accountId, app.userName);
    const auth = new AuthMethod({
      storage: testStorage(),
      cloud: new AwsCloudProvider({ env: { CLOUD_REGION: region }, imdsEndpoint: noImds, retryBaseDelayMs: 1 }),
    });
    const post = (path: string, body: object) => auth.handle({ method: 'POST', path, body });
    const config = {
      access_key: operatorKey.accessKeyId,
      secret_key: operatorKey.secretAccessKey,
      iam_endpoint: aws.url,
      sts_endpoint: aws.url,
      sts_region: region,
      ...clientConfig,
    };
    expect((await post('config/client', config)).status).toBe(204);
    // The role's principal is resolved through the partition's IAM (signed for its home region).
    expect((await post('role/app', { auth_type: 'iam', bound_iam_principal_arn: [app.arn] })).status).toBe(204);
    return { post, app, appKey };
  }

  it.each([
    ['aws-cn', 'cn-north-1'],
    ['aws-us-gov', 'us-gov-west-1'],
  ] as const)('a client signed for %s (%s) logs in through the fake STS', async (partition, region) => {
    const { post, app, appKey } = await authFor(partition, region);
    const answer = await post('login', buildIamLoginBody({ credentials: appKey, region, role: 'app' }));
    expect(answer.status).toBe(200);
    expect((answer.body as { auth: { internal_data: Record<string, string> } }).auth.internal_data).toMatchObject({
      client_arn: app.arn,
    });
    const forwarded = aws.calls('GetCallerIdentity').at(-1);
    expect(forwarded).toMatchObject({ region, host: new URL(regionalStsUrl(region)).host, status: 200 });
    expect(aws.calls('GetUser').at(-1)?.region).toBe(partition === 'aws-cn' ? 'cn-north-1' : 'us-gov-west-1');
  });

  it('use_sts_region_from_client: a region of another partition is refused before anything is sent, unless allowed', async () => {
    const { post, appKey } = await authFor('aws-us-gov', 'us-gov-west-1', { use_sts_region_from_client: true });
    const before = aws.requests.length;
    const commercial = await post(
      'login',
      buildIamLoginBody({ credentials: appKey, region: 'us-east-1', role: 'app' }),
    );
    expect(commercial).toEqual({
      status: 400,
      body: {
        errors: [
          expect.stringMatching(/STS region "us-east-1" .* outside partition "aws-us-gov".*allowed_sts_regions/),
        ],
      },
    });
    expect((await post('config/client', { allowed_sts_regions: ['us-gov-east-1'] })).status).toBe(204);
    const unlisted = await post(
      'login',
      buildIamLoginBody({ credentials: appKey, region: 'us-gov-west-1', role: 'app' }),
    );
    expect(unlisted).toEqual({
      status: 400,
      body: { errors: [expect.stringMatching(/"us-gov-west-1" .* not in allowed_sts_regions/)] },
    });
    expect(aws.requests.length).toBe(before);
    expect((await post('config/client', { allowed_sts_regions: ['not a region'] })).status).toBe(400);
  });
});
