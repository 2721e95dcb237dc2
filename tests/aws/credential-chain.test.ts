// Each source of the standard credential chain through real HTTP fakes and real files, their order, refresh under
// concurrency, and the answer when nothing has credentials.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import type { CredentialEvent } from '../../src/adapters/aws/credentials/credentials.js';
import { AuthMethod } from '../../src/index.js';
import { FakeContainerCredentials, FakeImds, type FakeRole } from '../../src/testing/index.js';
import { testStorage } from '../support/test-storage.js';
import { newProvider, noImds, ownAccount, otherAccount, settings, startWorld, type World } from './world.js';

let world: World;
let clock: ManualClock;
let directory: string;
let role: FakeRole;
/** Every endpoint at the fake, no static keys: the chain decides. */
let keyless: ReturnType<typeof settings>;
const events: CredentialEvent[] = [];

beforeEach(async () => {
  clock = new ManualClock(new Date());
  world = await startWorld({ clock });
  role = world.aws.createRole({ accountId: otherAccount, roleName: 'service' });
  keyless = settings({ endpoint: world.aws.url, iamEndpoint: world.aws.url, stsEndpoint: world.aws.url });
  directory = mkdtempSync(join(tmpdir(), 'strongroom-chain-'));
  events.length = 0;
});
afterEach(async () => {
  await world.aws.stop();
  rmSync(directory, { recursive: true, force: true });
});

const file = (name: string, text: string) => {
  const path = join(directory, name);
  writeFileSync(path, text);
  return path;
};
const provider = (env: Record<string, string | undefined>, extra: Parameters<typeof newProvider>[0] = {}) =>
  newProvider({
    env,
    clock,
    imdsTimeoutMs: 10_000,
    timeoutMs: 10_000,
    onCredentials: (event) => events.push(event),
    ...extra,
  });
const callerArn = async (chosen: ReturnType<typeof newProvider>) =>
  (await chosen.getCallerIdentity({ settings: keyless })).arn;
const session = (sessionName: string, durationSeconds = 3600) =>
  world.aws.issueSessionCredentials({ accountId: otherAccount, roleName: 'service', sessionName, durationSeconds });
const assumedArn = (sessionName: string) => `arn:aws:sts::${otherAccount}:assumed-role/service/${sessionName}`;

describe('credential sources', () => {
  it('AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, with AWS_REGION as the default region', async () => {
    const issued = session('env');
    const env = {
      AWS_ACCESS_KEY_ID: issued.accessKeyId,
      AWS_SECRET_ACCESS_KEY: issued.secretAccessKey,
      AWS_SESSION_TOKEN: issued.sessionToken,
      AWS_REGION: 'eu-central-1',
    };
    expect(await callerArn(provider(env))).toBe(assumedArn('env'));
    expect(world.aws.requests[0]?.region).toBe('eu-central-1');
    expect(events).toEqual([{ source: 'env:AWS', fetched: false }]);
  });

  it('AWS_DEFAULT_REGION when AWS_REGION is unset', async () => {
    const env = {
      AWS_ACCESS_KEY_ID: world.key.accessKeyId,
      AWS_SECRET_ACCESS_KEY: world.key.secretAccessKey,
      AWS_DEFAULT_REGION: 'ap-south-1',
    };
    await callerArn(provider(env));
    expect(world.aws.requests[0]?.region).toBe('ap-south-1');
  });

  it('shared credentials file: the default profile, or AWS_PROFILE', async () => {
    const credentials = file(
      'credentials',
      `[default]\naws_access_key_id = ${world.key.accessKeyId}\naws_secret_access_key = ${world.key.secretAccessKey}\n\n[other]\naws_access_key_id = AKIAUNKNOWN\naws_secret_access_key = x\n`,
    );
    const env = { AWS_SHARED_CREDENTIALS_FILE: credentials, AWS_CONFIG_FILE: join(directory, 'absent') };
    expect(await callerArn(provider(env))).toBe(world.user.arn);
    await expect(callerArn(provider({ ...env, AWS_PROFILE: 'other' }))).rejects.toThrow(/InvalidClientTokenId/);
    await expect(callerArn(provider({ ...env, AWS_PROFILE: 'missing' }))).rejects.toThrow(
      /profile "missing" is not in/,
    );
  });

  it('HOME/.aws/credentials when no file variable is set', async () => {
    mkdirSync(join(directory, '.aws'));
    writeFileSync(
      join(directory, '.aws', 'credentials'),
      `[default]\naws_access_key_id=${world.key.accessKeyId}\naws_secret_access_key=${world.key.secretAccessKey}\n`,
    );
    expect(await callerArn(provider({ HOME: directory }))).toBe(world.user.arn);
  });

  it('role_arn + source_profile chains, two roles deep, with external_id', async () => {
    world.aws.createRole({ accountId: otherAccount, roleName: 'final', externalId: 'ext-1' });
    const config = file(
      'config',
      [
        '[profile base]',
        'region = us-west-2',
        '[profile middle]',
        `role_arn = ${role.arn}`,
        'source_profile = base',
        '[profile top]',
        `role_arn = arn:aws:iam::${otherAccount}:role/final`,
        'source_profile = middle',
        'external_id = ext-1',
        'role_session_name = top-session',
      ].join('\n'),
    );
    const credentials = file(
      'credentials',
      `[base]\naws_access_key_id = ${world.key.accessKeyId}\naws_secret_access_key = ${world.key.secretAccessKey}\n`,
    );
    const env = { AWS_CONFIG_FILE: config, AWS_SHARED_CREDENTIALS_FILE: credentials, AWS_PROFILE: 'top' };
    expect(await callerArn(provider(env))).toBe(`arn:aws:sts::${otherAccount}:assumed-role/final/top-session`);
    expect(world.aws.calls('AssumeRole').map((entry) => entry.accessKeyId?.slice(0, 4))).toEqual(['AKIA', 'ASIA']);
    expect(events[0]).toMatchObject({ source: 'shared-config', detail: 'profile top', fetched: true });
    expect(JSON.stringify(events)).not.toContain(world.key.secretAccessKey);
    const loop = file(
      'loop',
      '[profile a]\nrole_arn = arn:aws:iam::1:role/x\nsource_profile = b\n[profile b]\nrole_arn = arn:aws:iam::1:role/y\nsource_profile = a\n',
    );
    await expect(callerArn(provider({ AWS_CONFIG_FILE: loop, AWS_PROFILE: 'a' }))).rejects.toThrow(/loops/);
  });

  it('credential_process: runs the command, reads its Version 1 JSON, never echoes its output in errors', async () => {
    const issued = session('process');
    const output = JSON.stringify({
      Version: 1,
      AccessKeyId: issued.accessKeyId,
      SecretAccessKey: issued.secretAccessKey,
      SessionToken: issued.sessionToken,
      Expiration: issued.expiration.toISOString(),
    });
    const script = file('creds.cjs', `process.stdout.write(${JSON.stringify(output)})`);
    const config = file('config', `[default]\ncredential_process = "${process.execPath}" "${script}"\n`);
    expect(await callerArn(provider({ AWS_CONFIG_FILE: config }))).toBe(assumedArn('process'));

    const leaky = file(
      'leaky.cjs',
      `process.stdout.write('{"Version":1,"AccessKeyId":"AKIA","SecretAccessKey":"hunter2-secret"'); process.exit(3)`,
    );
    const failing = file('failing', `[default]\ncredential_process = "${process.execPath}" "${leaky}"\n`);
    const failure = callerArn(provider({ AWS_CONFIG_FILE: failing }));
    await expect(failure).rejects.toThrow(/profile "default": exited with code 3/);
    await expect(failure).rejects.not.toThrow(/hunter2/);
  });

  it('web identity: the token file exchanged with AssumeRoleWithWebIdentity, unsigned', async () => {
    const token = file('token', world.aws.issueWebIdentityToken(role.arn));
    const env = { AWS_WEB_IDENTITY_TOKEN_FILE: token, AWS_ROLE_ARN: role.arn, AWS_ROLE_SESSION_NAME: 'pod' };
    expect(await callerArn(provider(env))).toBe(assumedArn('pod'));
    const exchange = world.aws.calls('AssumeRoleWithWebIdentity');
    expect(exchange).toHaveLength(1);
    expect(exchange[0]?.headers.authorization).toBeUndefined();
    expect(events).toEqual([{ source: 'web-identity', detail: role.arn, fetched: true, expiresAt: expect.any(Date) }]);
    writeFileSync(token, 'not-a-token');
    clock.advance(3600_000);
    await expect(callerArn(provider(env))).rejects.toThrow(/web identity .*InvalidIdentityToken/);
  });

  it('container credentials: FULL_URI with the token file (EKS Pod Identity), RELATIVE_URI (ECS)', async () => {
    const container = await FakeContainerCredentials.start({
      authorizationToken: 'pod-identity-token',
      credentials: () => session('container'),
    });
    try {
      const tokenFile = file('pod-token', 'pod-identity-token\n');
      const full = {
        AWS_CONTAINER_CREDENTIALS_FULL_URI: `${container.url}/v1/credentials`,
        AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: tokenFile,
      };
      expect(await callerArn(provider(full))).toBe(assumedArn('container'));
      const wrong = {
        AWS_CONTAINER_CREDENTIALS_FULL_URI: `${container.url}/v1/credentials`,
        AWS_CONTAINER_AUTHORIZATION_TOKEN: 'wrong',
      };
      await expect(callerArn(provider(wrong))).rejects.toThrow(/container credentials: .* answered HTTP 403/);
      const relative = {
        AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: '/v2/credentials/abc',
        AWS_CONTAINER_AUTHORIZATION_TOKEN: 'pod-identity-token',
      };
      expect(await callerArn(provider(relative, { containerEndpoint: container.url }))).toBe(assumedArn('container'));
      expect(container.requests.map((entry) => [entry.path, entry.status])).toEqual([
        ['/v1/credentials', 200],
        ['/v1/credentials', 403],
        ['/v2/credentials/abc', 200],
      ]);
      const remote = { AWS_CONTAINER_CREDENTIALS_FULL_URI: 'http://example.com/creds' };
      await expect(callerArn(provider(remote))).rejects.toThrow(/must be https:\/\/ or a loopback/);
    } finally {
      await container.stop();
    }
  });

  it('instance metadata last; no source at all is a clear 502 naming every place looked', async () => {
    const imds = await FakeImds.start({ roleName: 'service', credentials: () => session('i-1') });
    try {
      expect(await callerArn(provider({}, { imdsEndpoint: imds.url }))).toBe(assumedArn('i-1'));
      expect(events).toEqual([{ source: 'instance-metadata', fetched: true, expiresAt: expect.any(Date) }]);
    } finally {
      await imds.stop();
    }
    const auth = new AuthMethod({ storage: testStorage(), cloud: provider({}, { imdsEndpoint: noImds }), clock });
    await auth.handle({
      method: 'POST',
      path: 'config/client',
      body: { sts_endpoint: world.aws.url, iam_endpoint: world.aws.url },
    });
    // Writing a role bound to an IAM principal looks the principal up, with the provider's credentials.
    const body = { auth_type: 'iam', bound_iam_principal_arn: [`arn:aws:iam::${ownAccount}:role/app`] };
    const answer = await auth.handle({ method: 'POST', path: 'role/app', body });
    expect(answer.status).toBe(502);
    const [message] = (answer.body as { errors: string[] }).errors;
    expect(message).toMatch(
      /no cloud credentials: config\/client .*CLOUD_ACCESS_KEY.*AWS_ACCESS_KEY_ID.*shared files.*web identity.*container.*instance metadata failed/,
    );
  });
});

describe('order and refresh', () => {
  it('config/client, CLOUD_*, AWS_*, profile, web identity, container, instance metadata: each wins over the rest', async () => {
    const container = await FakeContainerCredentials.start({ credentials: () => session('container') });
    const imds = await FakeImds.start({ roleName: 'service', credentials: () => session('imds') });
    try {
      const cloudKey = session('cloud');
      const awsKey = session('aws');
      const profileKey = session('profile');
      const env: Record<string, string | undefined> = {
        CLOUD_ACCESS_KEY: cloudKey.accessKeyId,
        CLOUD_SECRET_KEY: cloudKey.secretAccessKey,
        CLOUD_SESSION_TOKEN: cloudKey.sessionToken,
        AWS_ACCESS_KEY_ID: awsKey.accessKeyId,
        AWS_SECRET_ACCESS_KEY: awsKey.secretAccessKey,
        AWS_SESSION_TOKEN: awsKey.sessionToken,
        AWS_CONFIG_FILE: file(
          'config',
          `[default]\naws_access_key_id=${profileKey.accessKeyId}\naws_secret_access_key=${profileKey.secretAccessKey}\naws_session_token=${profileKey.sessionToken}\n`,
        ),
        AWS_WEB_IDENTITY_TOKEN_FILE: file('token', world.aws.issueWebIdentityToken(role.arn)),
        AWS_ROLE_ARN: role.arn,
        AWS_ROLE_SESSION_NAME: 'web',
        AWS_CONTAINER_CREDENTIALS_FULL_URI: `${container.url}/creds`,
      };
      const chosen = provider(env, { imdsEndpoint: imds.url });
      const arnWith = (over = keyless) => chosen.getCallerIdentity({ settings: over }).then((identity) => identity.arn);
      expect(await arnWith(world.settings)).toBe(world.user.arn);
      const steps: Array<[string[], string]> = [
        [[], 'cloud'],
        [['CLOUD_ACCESS_KEY'], 'aws'],
        [['AWS_ACCESS_KEY_ID'], 'profile'],
        [['AWS_CONFIG_FILE'], 'web'],
        [['AWS_WEB_IDENTITY_TOKEN_FILE'], 'container'],
        [['AWS_CONTAINER_CREDENTIALS_FULL_URI'], 'imds'],
      ];
      for (const [remove, expected] of steps) {
        for (const name of remove) env[name] = undefined;
        expect(await arnWith()).toBe(assumedArn(expected));
      }
      expect(events.map((event) => event.source)).toEqual([
        'config/client',
        'env:CLOUD',
        'env:AWS',
        'shared-config',
        'web-identity',
        'container',
        'instance-metadata',
      ]);
    } finally {
      await container.stop();
      await imds.stop();
    }
  });

  it('100 concurrent callers at expiry share one refresh', async () => {
    const container = await FakeContainerCredentials.start({ credentials: () => session('container', 900) });
    try {
      const chosen = provider({ AWS_CONTAINER_CREDENTIALS_FULL_URI: `${container.url}/creds` });
      await callerArn(chosen);
      clock.advance(601_000); // within five minutes of expiry: due for renewal
      const arns = await Promise.all(Array.from({ length: 100 }, () => callerArn(chosen)));
      expect(new Set(arns)).toEqual(new Set([assumedArn('container')]));
      expect(container.requests).toHaveLength(2);
      expect(events.filter((event) => event.fetched)).toHaveLength(2);
      const keys = new Set(
        world.aws
          .calls('GetCallerIdentity')
          .slice(1)
          .map((entry) => entry.accessKeyId),
      );
      expect(keys.size).toBe(1);
      expect(keys.has(world.aws.calls('GetCallerIdentity')[0]?.accessKeyId)).toBe(false);
    } finally {
      await container.stop();
    }
  });
});

describe('the onCredentials debug hook', () => {
  it('cannot fail a cloud call, by throwing or by rejecting, nor leave an unhandled rejection behind', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const env = { AWS_ACCESS_KEY_ID: world.key.accessKeyId, AWS_SECRET_ACCESS_KEY: world.key.secretAccessKey };
      const hooks = [
        () => {
          throw new Error('debug hook bug');
        },
        async () => {
          throw new Error('async debug hook bug');
        },
      ];
      for (const onCredentials of hooks) {
        expect(await callerArn(provider(env, { onCredentials }))).toBe(world.user.arn);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
