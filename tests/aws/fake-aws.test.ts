import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { encodeForm } from '../../src/adapters/aws/api/query-api.js';
import { signRequest } from '../../src/adapters/aws/api/signing.js';
import { newProvider, ownAccount, settings, startWorld, type World } from './world.js';

/** The fake must refuse what AWS refuses, or the provider tests would prove nothing. */
describe('FakeAws signature and credential checks', () => {
  let world: World;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = new ManualClock(new Date());
    world = await startWorld({ clock });
    world.aws.createRole({ accountId: ownAccount, roleName: 'app' });
  });
  afterEach(() => world.aws.stop());

  const identityWith = (env: Record<string, string>, provider = newProvider({ env, clock })) =>
    provider.getCallerIdentity({ settings: settings({ stsEndpoint: world.aws.url }) });

  /** A hand-signed Query API call, for requests the provider would never make. */
  async function signedCall(service: string, region: string, action: string) {
    const url = new URL(world.aws.url);
    const body = encodeForm([
      ['Action', action],
      ['Version', '2010-05-08'],
    ]);
    const headers = signRequest({ url, method: 'POST', service, region, body, now: clock.now() }, world.key);
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: Object.entries(headers).filter(([name]) => name !== 'Host'),
    });
    return { status: response.status, body: await response.text() };
  }

  it('refuses unsigned requests, and unknown or inherited action names', async () => {
    const unsigned = await fetch(world.aws.url, {
      method: 'POST',
      body: encodeForm([['Action', 'GetCallerIdentity']]),
    });
    expect(unsigned.status).toBe(403);
    expect(await unsigned.text()).toContain('<Code>MissingAuthenticationToken</Code>');
    for (const action of ['Bogus', 'constructor', '__proto__']) {
      const answer = await signedCall('sts', 'us-east-1', action);
      expect(answer).toMatchObject({ status: 400 });
      expect(answer.body).toContain('<Code>InvalidAction</Code>');
    }
  });

  it('refuses a session key without its token, or after it expired', async () => {
    const session = world.aws.issueSessionCredentials({
      accountId: ownAccount,
      roleName: 'app',
      sessionName: 's',
      durationSeconds: 900,
    });
    const keys = { CLOUD_ACCESS_KEY: session.accessKeyId, CLOUD_SECRET_KEY: session.secretAccessKey };
    await expect(identityWith(keys)).rejects.toThrow(/InvalidClientTokenId/);
    const withToken = { ...keys, CLOUD_SESSION_TOKEN: session.sessionToken };
    expect((await identityWith(withToken)).accountId).toBe(ownAccount);
    clock.advance(901);
    await expect(identityWith(withToken)).rejects.toThrow(/ExpiredToken/);
  });

  it('refuses signatures with a wrong secret or a date more than 15 minutes off', async () => {
    const keys = { CLOUD_ACCESS_KEY: world.key.accessKeyId, CLOUD_SECRET_KEY: world.key.secretAccessKey };
    await expect(identityWith({ ...keys, CLOUD_SECRET_KEY: 'wrong' })).rejects.toThrow(/SignatureDoesNotMatch/);
    const skewed = newProvider({ env: keys, clock: new ManualClock(clock.now().getTime() - 16 * 60_000) });
    await expect(identityWith(keys, skewed)).rejects.toThrow(/SignatureDoesNotMatch: Signature expired/);
  });

  it('refuses IAM requests signed for a region other than a partition home region', async () => {
    const refused = await signedCall('iam', 'eu-west-1', 'GetUser');
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Credential should be scoped to a valid region');
    expect((await signedCall('iam', 'us-east-1', 'GetUser')).status).toBe(200);
  });
});
