import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIamLoginBody } from '../../src/aws.js';
import { CloudUnavailable, InvalidRequest } from '../../src/lib/errors.js';
import type { SignedHttpRequest } from '../../src/ports/cloud.js';
import { decodeIamLogin, startCapture, type CaptureServer } from './capture.js';
import { newProvider, ownAccount, settings, startWorld, type World } from './world.js';

describe('AwsCloudProvider.forwardCallerIdentity', () => {
  let world: World;
  let bystander: CaptureServer;
  beforeEach(async () => {
    world = await startWorld();
    bystander = await startCapture();
  });
  afterEach(async () => {
    await world.aws.stop();
    await bystander.stop();
  });

  const signed = (options: Partial<Parameters<typeof buildIamLoginBody>[0]> = {}): SignedHttpRequest =>
    decodeIamLogin(buildIamLoginBody({ credentials: world.key, serverId: 'vault.example.com', ...options }));
  const stsAt = (url: string, extra: Partial<ReturnType<typeof settings>> = {}) => ({
    settings: settings({ stsEndpoint: url, ...extra }),
  });

  it('sends the client request unchanged to the configured STS, which verifies it and answers text/xml', async () => {
    const request = signed();
    const answer = await newProvider().forwardCallerIdentity({ ...stsAt(world.aws.url), region: 'eu-west-1' }, request);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/xml');
    expect(answer.body).toContain(`<Arn>${world.user.arn}</Arn>`);
    expect(answer.body).toContain(`<Account>${ownAccount}</Account>`);
    const [seen] = world.aws.requests;
    expect(seen).toMatchObject({ method: 'POST', path: '/', host: 'sts.us-east-1.amazonaws.com', region: 'us-east-1' });
    expect(seen?.headers['x-service-cloud-iam-server-id']).toBe('vault.example.com');
    expect(seen?.headers['content-length']).toBe(String(Buffer.byteLength(request.body)));
  });

  it('connects only to the STS endpoint, never to the host named in the client URL', async () => {
    const request = signed({ stsUrl: `${bystander.url}/` });
    const answer = await newProvider().forwardCallerIdentity(stsAt(world.aws.url), request);
    expect(answer.status).toBe(200);
    expect(world.aws.requests[0]?.host).toBe(new URL(bystander.url).host);
    expect(bystander.received).toEqual([]);
  });

  it('keeps header spelling, order and repeated values, and the path under an endpoint path prefix', async () => {
    const request: SignedHttpRequest = {
      method: 'POST',
      url: 'https://sts.amazonaws.com/?',
      body: 'Action=GetCallerIdentity&Version=2011-06-15',
      headers: {
        'X-Amz-Date': ['20260101T000000Z'],
        'x-custom': ['a', 'b'],
        host: ['evil.example'],
        Connection: ['close'],
      },
    };
    await newProvider().forwardCallerIdentity(stsAt(`${bystander.url}/proxy/`), request);
    const [seen] = bystander.received;
    expect(seen?.path).toBe('/proxy/');
    expect(seen?.rawHeaders.slice(0, 10)).toEqual([
      'Host',
      'sts.amazonaws.com',
      'X-Amz-Date',
      '20260101T000000Z',
      'x-custom',
      'a',
      'x-custom',
      'b',
      'Content-Length',
      '43',
    ]);
    expect(seen?.rawHeaders.map((name) => name.toLowerCase())).not.toContain('evil.example');
    expect(seen?.body).toBe(request.body);
  });

  it('returns STS refusals and redirects as they are, without following the redirect', async () => {
    const tampered = { ...signed(), body: 'Action=GetCallerIdentity&Version=2011-06-16' };
    const refusal = await newProvider().forwardCallerIdentity(stsAt(world.aws.url), tampered);
    expect(refusal.status).toBe(403);
    expect(refusal.body).toContain('<Code>SignatureDoesNotMatch</Code>');

    const redirecting = await startCapture((_request, response) =>
      response.writeHead(302, { Location: `${bystander.url}/` }).end(),
    );
    try {
      const answer = await newProvider().forwardCallerIdentity(stsAt(redirecting.url), signed());
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe(`${bystander.url}/`);
      expect(bystander.received).toEqual([]);
    } finally {
      await redirecting.stop();
    }
  });

  it('retries 5xx and connection failures within max_retries and returns the last answer', async () => {
    world.aws.failNext({ kind: 'error', status: 503, code: 'ServiceUnavailable' }, { kind: 'reset' });
    const answer = await newProvider().forwardCallerIdentity(stsAt(world.aws.url, { maxRetries: 2 }), signed());
    expect(answer.status).toBe(200);
    world.aws.failNext({ kind: 'error', status: 503, code: 'ServiceUnavailable' });
    const last = await newProvider().forwardCallerIdentity(stsAt(world.aws.url, { maxRetries: 0 }), signed());
    expect(last.status).toBe(503);
    expect(world.aws.requests.map((entry) => entry.status)).toEqual([503, 0, 200, 503]);
  });

  it('fails with CloudUnavailable when the endpoint is unreachable or hangs', async () => {
    const closed = newProvider().forwardCallerIdentity(stsAt('http://127.0.0.1:9', { maxRetries: 1 }), signed());
    await expect(closed).rejects.toThrow(CloudUnavailable);
    await expect(closed).rejects.toThrow(/STS endpoint http:\/\/127\.0\.0\.1:9 unreachable: .*ECONNREFUSED/);
    world.aws.failNext({ kind: 'hang' });
    const hanging = newProvider({ timeoutMs: 150 }).forwardCallerIdentity(
      stsAt(world.aws.url, { maxRetries: 0 }),
      signed(),
    );
    await expect(hanging).rejects.toThrow(/unreachable: timed out/);
  });

  it('refuses requests it cannot send faithfully with InvalidRequest', async () => {
    const provider = newProvider();
    const base = signed();
    const bad: SignedHttpRequest[] = [
      { ...base, url: 'not a url' },
      { ...base, headers: { ...base.headers, 'Content-Length': ['999'] } },
      { ...base, headers: { ...base.headers, 'Content-Length': ['43', '43'] } },
      { ...base, headers: { ...base.headers, 'X-Bad': ['a\r\nInjected: yes'] } },
      { ...base, headers: { ...base.headers, 'Bad Name': ['x'] } },
    ];
    for (const request of bad) {
      await expect(provider.forwardCallerIdentity(stsAt(world.aws.url), request)).rejects.toThrow(InvalidRequest);
    }
    expect(world.aws.requests).toEqual([]);
  });
});
