import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ec2Endpoint,
  forwardingEndpoint,
  iamEndpoint,
  partitionOfRegion,
  stsEndpoint,
} from '../../src/adapters/aws/api/endpoints.js';
import { CloudUnavailable, InvalidRequest } from '../../src/lib/errors.js';
import { newProvider, settings } from './world.js';

const none = settings();
const href = (endpoint: { url: URL; region: string }) => [endpoint.url.href, endpoint.region];

describe('default endpoints', () => {
  it('derives regional EC2 and STS hosts in every partition', () => {
    expect(href(ec2Endpoint(none, 'eu-west-1'))).toEqual(['https://ec2.eu-west-1.amazonaws.com/', 'eu-west-1']);
    expect(href(ec2Endpoint(none, 'cn-northwest-1'))).toEqual([
      'https://ec2.cn-northwest-1.amazonaws.com.cn/',
      'cn-northwest-1',
    ]);
    expect(href(ec2Endpoint(none, 'us-gov-east-1'))).toEqual([
      'https://ec2.us-gov-east-1.amazonaws.com/',
      'us-gov-east-1',
    ]);
    expect(href(stsEndpoint(none, 'ap-southeast-2'))).toEqual([
      'https://sts.ap-southeast-2.amazonaws.com/',
      'ap-southeast-2',
    ]);
    expect(href(stsEndpoint(none, 'cn-north-1'))).toEqual(['https://sts.cn-north-1.amazonaws.com.cn/', 'cn-north-1']);
  });

  it('uses one global IAM endpoint per partition, signed for its home region', () => {
    expect(href(iamEndpoint(none, 'aws'))).toEqual(['https://iam.amazonaws.com/', 'us-east-1']);
    expect(href(iamEndpoint(none, 'aws-us-gov'))).toEqual(['https://iam.us-gov.amazonaws.com/', 'us-gov-west-1']);
    expect(href(iamEndpoint(none, 'aws-cn'))).toEqual(['https://iam.cn-north-1.amazonaws.com.cn/', 'cn-north-1']);
    expect([
      partitionOfRegion('us-east-1'),
      partitionOfRegion('cn-north-1'),
      partitionOfRegion('us-gov-west-1'),
    ]).toEqual(['aws', 'aws-cn', 'aws-us-gov']);
  });

  it('refuses region names that are not region names, including ones that would steer the host', () => {
    for (const region of ['', 'US-EAST-1', 'evil.com/x', 'us-east-1.evil.com', 'us-east-1#', 'us-east']) {
      expect(() => ec2Endpoint(none, region)).toThrow(InvalidRequest);
    }
    expect(() => ec2Endpoint(none, 'zz-east-1')).toThrow(/belongs to no known partition/);
  });

  it('never builds a host other than <service>.<region>.<partition suffix>', () => {
    fc.assert(
      fc.property(fc.string(), (region) => {
        let host: string;
        try {
          host = ec2Endpoint(none, region).url.host;
        } catch (error) {
          return error instanceof InvalidRequest;
        }
        return host === `ec2.${region}.amazonaws.com` || host === `ec2.${region}.amazonaws.com.cn`;
      }),
    );
  });
});

describe('endpoint overrides', () => {
  const overridden = settings({
    endpoint: 'http://127.0.0.1:4566',
    iamEndpoint: 'https://iam.proxy.internal/base',
    stsEndpoint: 'http://sts.proxy.internal:8080',
    stsRegion: 'eu-central-1',
  });

  it('sends every region to the override, still signed for the call region (sts_region for STS)', () => {
    expect(href(ec2Endpoint(overridden, 'ap-south-1'))).toEqual(['http://127.0.0.1:4566/', 'ap-south-1']);
    expect(href(ec2Endpoint(overridden, 'cn-north-1'))).toEqual(['http://127.0.0.1:4566/', 'cn-north-1']);
    expect(href(iamEndpoint(overridden, 'aws-cn'))).toEqual(['https://iam.proxy.internal/base', 'cn-north-1']);
    expect(href(stsEndpoint(overridden, 'us-west-2'))).toEqual(['http://sts.proxy.internal:8080/', 'eu-central-1']);
    expect(href(stsEndpoint(settings({ stsEndpoint: 'http://sts.local' }), 'us-west-2'))).toEqual([
      'http://sts.local/',
      'us-west-2',
    ]);
  });

  it('chooses the forwarding target from sts_endpoint, else the region, else sts_region, else the global endpoint', () => {
    expect(forwardingEndpoint(overridden, 'us-west-2').href).toBe('http://sts.proxy.internal:8080/');
    expect(forwardingEndpoint(none, 'us-west-2').href).toBe('https://sts.us-west-2.amazonaws.com/');
    expect(forwardingEndpoint(settings({ stsRegion: 'eu-west-3' }), undefined).href).toBe(
      'https://sts.eu-west-3.amazonaws.com/',
    );
    expect(forwardingEndpoint(none, undefined).href).toBe('https://sts.amazonaws.com/');
  });

  it('refuses overrides that are not http(s) URLs', () => {
    for (const endpoint of ['ftp://x', 'not a url', 'http://h/?a=1', 'http://user:pw@h/', 'file:///etc/passwd']) {
      expect(() => ec2Endpoint(settings({ endpoint }), 'us-east-1')).toThrow(CloudUnavailable);
    }
  });
});

describe('AwsCloudProvider default endpoint use', () => {
  /** A fetch that answers every call without a network and remembers where each went. */
  function recordingFetch(account: string) {
    const calls: string[] = [];
    const answer: typeof fetch = async (input, init) => {
      const action = new URLSearchParams(String(init?.body)).get('Action');
      calls.push(`${action} ${String(input)}`);
      if (action === 'GetCallerIdentity') {
        const result = `<Arn>arn:aws:iam::${account}:user/u</Arn><UserId>AIDA1</UserId><Account>${account}</Account>`;
        return new Response(
          `<GetCallerIdentityResponse><GetCallerIdentityResult>${result}</GetCallerIdentityResult></GetCallerIdentityResponse>`,
        );
      }
      const code = action === 'DescribeInstances' ? 'InvalidInstanceID.NotFound' : 'NoSuchEntity';
      return new Response(`<ErrorResponse><Error><Code>${code}</Code></Error></ErrorResponse>`, { status: 404 });
    };
    return { calls, fetch: answer };
  }

  it('talks to the regional and partition endpoints when nothing is overridden', async () => {
    const recorder = recordingFetch('000000000001');
    const provider = newProvider({ fetch: recorder.fetch });
    const scope = { settings: settings({ accessKey: 'AKIAEXAMPLE', secretKey: 'secret' }) };
    await provider.describeInstance(
      { ...scope, region: 'cn-north-1', accountId: '000000000001' },
      'i-0123456789abcdef0',
    );
    await provider.getPrincipal(scope, 'arn:aws-us-gov:iam::000000000001:role/web');
    await provider.describeInstance({ ...scope, region: 'eu-west-1' }, 'i-0123456789abcdef0');
    expect(recorder.calls).toEqual([
      'GetCallerIdentity https://sts.cn-north-1.amazonaws.com.cn/',
      'DescribeInstances https://ec2.cn-north-1.amazonaws.com.cn/',
      'GetCallerIdentity https://sts.us-gov-west-1.amazonaws.com/',
      'GetRole https://iam.us-gov.amazonaws.com/',
      'DescribeInstances https://ec2.eu-west-1.amazonaws.com/',
    ]);
  });
});
