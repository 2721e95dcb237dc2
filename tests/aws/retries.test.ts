import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CloudUnavailable } from '../../src/lib/errors.js';
import { newProvider, startWorld, type World } from './world.js';

describe('AwsCloudProvider retries and error mapping', () => {
  let world: World;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(() => world.aws.stop());

  const identity = (maxRetries: number, provider = newProvider()) =>
    provider.getCallerIdentity({ settings: { ...world.settings, maxRetries } });

  it('retries 5xx, throttling codes, 429 and dropped connections, then succeeds', async () => {
    world.aws.failNext(
      { kind: 'error', status: 503, code: 'ServiceUnavailable' },
      { kind: 'error', status: 400, code: 'Throttling', message: 'Rate exceeded' },
      { kind: 'reset' },
    );
    expect((await identity(-1)).arn).toBe(world.user.arn);
    world.aws.failNext({ kind: 'error', status: 429, code: 'TooManyRequestsException', retryAfter: '0' });
    expect((await identity(1)).arn).toBe(world.user.arn);
    expect(world.aws.requests.map((entry) => entry.status)).toEqual([503, 400, 0, 200, 429, 200]);
  });

  it('gives up after max_retries retries (-1 means 3), reporting the last error as CloudUnavailable', async () => {
    const unavailable = { kind: 'error', status: 500, code: 'InternalFailure', message: 'boom' } as const;
    world.aws.failNext(unavailable, unavailable, unavailable, unavailable);
    await expect(identity(-1)).rejects.toThrow('sts GetCallerIdentity failed: InternalFailure: boom (HTTP 500)');
    expect(world.aws.requests).toHaveLength(4);

    world.aws.requests.length = 0;
    world.aws.failNext(unavailable);
    await expect(identity(0)).rejects.toThrow(CloudUnavailable);
    expect(world.aws.requests).toHaveLength(1);

    world.aws.requests.length = 0;
    world.aws.failNext(unavailable, unavailable);
    expect((await identity(2)).arn).toBe(world.user.arn);
    expect(world.aws.requests).toHaveLength(3);
  });

  it('does not retry client errors such as AccessDenied or 501', async () => {
    world.aws.failNext({ kind: 'error', status: 403, code: 'AccessDenied', message: 'not allowed' });
    await expect(identity(3)).rejects.toThrow('sts GetCallerIdentity failed: AccessDenied: not allowed (HTTP 403)');
    world.aws.failNext({ kind: 'raw', status: 501, body: 'not implemented', contentType: 'text/plain' });
    await expect(identity(3)).rejects.toThrow('sts GetCallerIdentity failed with HTTP 501');
    expect(world.aws.requests).toHaveLength(2);
  });

  it('turns unparsable answers and redirects into CloudUnavailable without retrying', async () => {
    world.aws.failNext({ kind: 'raw', status: 200, body: '<html>captive portal</html>', contentType: 'text/html' });
    await expect(identity(3)).rejects.toThrow('sts GetCallerIdentity: unparsable answer (HTTP 200)');
    world.aws.failNext({
      kind: 'raw',
      status: 200,
      body: '<GetCallerIdentityResponse><GetCallerIdentityResult/></GetCallerIdentityResponse>',
    });
    await expect(identity(3)).rejects.toThrow('sts GetCallerIdentity: answer lacks Arn');
    world.aws.failNext({ kind: 'raw', status: 302, body: '' });
    await expect(identity(3)).rejects.toThrow('sts GetCallerIdentity failed with HTTP 302');
    expect(world.aws.requests).toHaveLength(3);
  });

  it('times out a hanging endpoint and retries within max_retries', async () => {
    const provider = newProvider({ timeoutMs: 150 });
    world.aws.failNext({ kind: 'hang' }, { kind: 'hang' });
    await expect(identity(1, provider)).rejects.toThrow(
      /sts GetCallerIdentity at http:\/\/127\.0\.0\.1:\d+: timed out/,
    );
    world.aws.failNext({ kind: 'hang' });
    expect((await identity(1, provider)).arn).toBe(world.user.arn);
  });

  it('reports an unreachable endpoint as CloudUnavailable', async () => {
    const closed = { ...world.settings, stsEndpoint: 'http://127.0.0.1:9' };
    const failure = newProvider().getCallerIdentity({ settings: { ...closed, maxRetries: 1 } });
    await expect(failure).rejects.toThrow(CloudUnavailable);
    await expect(failure).rejects.toThrow(/sts GetCallerIdentity at http:\/\/127\.0\.0\.1:9: fetch failed/);
  });

  it('never puts the secret key or a session token in an error', async () => {
    world.aws.failNext({ kind: 'error', status: 403, code: 'SignatureDoesNotMatch', message: 'bad signature' });
    const error = await identity(0).then(
      () => new Error('expected a failure'),
      (caught: Error) => caught,
    );
    expect(error).toBeInstanceOf(CloudUnavailable);
    expect(error.message).not.toContain(world.key.secretAccessKey);
    expect(JSON.stringify(error)).not.toContain(world.key.secretAccessKey);
  });
});
