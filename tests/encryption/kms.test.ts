import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KmsRootKey } from '../../src/aws.js';
import { EncryptedStorage, KvEngine, MemoryStorage, RootKeyUnavailable, WrongRootKey } from '../../src/index.js';
import { startFakeKms, type RunningFakeKms } from '../../src/testing/fake-aws/kms.js';

const CREDENTIALS = { accessKeyId: 'AKIAKMSTEST', secretAccessKey: 'kms-test-secret' };
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : new TextDecoder().decode(value));

describe('KMS root key against a fake KMS over HTTP that checks SigV4', () => {
  let fake: RunningFakeKms;
  let keyArn: string;

  beforeEach(async () => {
    fake = await startFakeKms({
      credentials: { [CREDENTIALS.accessKeyId]: CREDENTIALS.secretAccessKey, ASIATEMP: 'temp-secret' },
      region: 'eu-west-1',
    });
    keyArn = fake.kms.createKey('strongroom');
  });
  afterEach(() => fake.stop());

  const provider = (options: Partial<ConstructorParameters<typeof KmsRootKey>[0]> = {}) =>
    new KmsRootKey({
      keyId: 'alias/strongroom',
      region: 'eu-west-1',
      endpoint: fake.url,
      credentials: async () => CREDENTIALS,
      ...options,
    });

  it('rekeys from one KMS key to another, online: the old key stops opening the keyring', async () => {
    const inner = new MemoryStorage();
    const running = new EncryptedStorage({ storage: inner, key: provider() });
    await running.put('app', new TextEncoder().encode('before'));
    const otherArn = fake.kms.createKey('next');
    await new EncryptedStorage({ storage: inner, key: provider() }).rekey(provider({ keyId: otherArn }));

    await expect(new EncryptedStorage({ storage: inner, key: provider() }).open()).rejects.toBeInstanceOf(WrongRootKey);
    const reopened = new EncryptedStorage({ storage: inner, key: provider({ keyId: otherArn }) });
    expect(text(await reopened.get('app'))).toBe('before');
    // The process that opened the keyring with the first KMS key keeps writing and rotating.
    await running.put('later', new TextEncoder().encode('after'));
    expect(await running.rotate()).toBe(2);
    expect(text(await reopened.get('later'))).toBe('after');
  });

  it('wraps the keyring key once at creation, unwraps it once per opening, and never per value', async () => {
    const inner = new MemoryStorage();
    const storage = new EncryptedStorage({ storage: inner, key: provider() });
    const kv = new KvEngine({ storage });
    await kv.handle({ method: 'POST', path: 'data/app', body: { data: { password: 'kms-protected' } } });
    await kv.handle({ method: 'POST', path: 'data/app', body: { data: { password: 'kms-protected-2' } } });
    expect(fake.kms.calls.map((call) => call.action)).toEqual(['Encrypt']);

    // Another process, with the key named by its ARN this time.
    const reopened = new EncryptedStorage({ storage: inner, key: provider({ keyId: keyArn }) });
    await reopened.open();
    const read = await new KvEngine({ storage: reopened }).handle({ method: 'GET', path: 'data/app' });
    expect((read.body as { data: { data: unknown } }).data.data).toEqual({ password: 'kms-protected-2' });
    await reopened.rotate();
    await reopened.rewrap();
    expect(text(await reopened.get('kv/config'))).toBe(text(await storage.get('kv/config')));
    expect(fake.kms.calls.map((call) => call.action)).toEqual(['Encrypt', 'Decrypt']);
    expect(fake.kms.calls.every((call) => call.accessKeyId === CREDENTIALS.accessKeyId)).toBe(true);
  });

  it('another KMS key is a wrong root key, refused at open with a clear message', async () => {
    const inner = new MemoryStorage();
    await new EncryptedStorage({ storage: inner, key: provider() }).open();
    const otherArn = fake.kms.createKey('other');
    const wrong = new EncryptedStorage({ storage: inner, key: provider({ keyId: otherArn }) });
    await expect(wrong.open()).rejects.toThrow(WrongRootKey);
    await expect(wrong.open()).rejects.toThrow(/IncorrectKeyException.*does not open the stored keyring/);
  });

  it('a wrong secret fails the signature check: the provider is unavailable, not the key wrong', async () => {
    const bad = provider({
      credentials: async () => ({ ...CREDENTIALS, secretAccessKey: 'not-the-secret' }),
      maxRetries: 0,
    });
    const storage = new EncryptedStorage({ storage: new MemoryStorage(), key: bad });
    await expect(storage.open()).rejects.toThrow(RootKeyUnavailable);
    await expect(storage.open()).rejects.toThrow(/InvalidSignatureException/);
    expect(fake.kms.calls).toEqual([]);
  });

  it('signs with temporary credentials (session token) and with the default chain from the environment', async () => {
    const temporary = provider({
      credentials: async () => ({
        accessKeyId: 'ASIATEMP',
        secretAccessKey: 'temp-secret',
        sessionToken: 'session-token',
      }),
    });
    const wrapped = await temporary.wrapKey(new Uint8Array(32).fill(7));
    const fromEnv = new KmsRootKey({
      keyId: 'alias/strongroom',
      region: 'eu-west-1',
      endpoint: fake.url,
      env: { CLOUD_ACCESS_KEY: CREDENTIALS.accessKeyId, CLOUD_SECRET_KEY: CREDENTIALS.secretAccessKey },
    });
    expect(Buffer.from(await fromEnv.unwrapKey(wrapped))).toEqual(Buffer.alloc(32, 7));
    expect(fake.kms.calls.map((call) => call.accessKeyId)).toEqual(['ASIATEMP', CREDENTIALS.accessKeyId]);
  });

  it('the default chain goes on past CLOUD_* to the AWS_* keys and to a profile of the shared files, as documented', async () => {
    const home = mkdtempSync(join(tmpdir(), 'strongroom-kms-home-'));
    try {
      mkdirSync(join(home, '.aws'));
      writeFileSync(
        join(home, '.aws', 'credentials'),
        `[kms]\naws_access_key_id = ASIATEMP\naws_secret_access_key = temp-secret\n`,
      );
      const viaEnv = { AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey };
      const viaProfile = { HOME: home, AWS_PROFILE: 'kms' };
      for (const env of [viaEnv, viaProfile]) {
        await new EncryptedStorage({
          storage: new MemoryStorage(),
          key: new KmsRootKey({ keyId: 'alias/strongroom', region: 'eu-west-1', endpoint: fake.url, env }),
        }).open();
      }
      expect(fake.kms.calls.map((call) => call.accessKeyId)).toEqual([CREDENTIALS.accessKeyId, 'ASIATEMP']);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('checks its key id and region at construction, and calls the KMS of the region in its partition', async () => {
    const refused: Array<[unknown, string]> = [
      [{ region: 'eu-west-1' }, 'KmsRootKey needs a keyId (a key id, key ARN, alias or alias ARN)'],
      [{ keyId: 'alias/strongroom' }, 'KmsRootKey needs an AWS region such as "eu-west-1", got undefined'],
      [
        { keyId: 'alias/strongroom', region: 'evil.example/x' },
        'KmsRootKey needs an AWS region such as "eu-west-1", got "evil.example/x"',
      ],
      [
        { keyId: 'alias/strongroom', region: 'eu-west-1', endpoint: 'kms.local' },
        'KmsRootKey endpoint must be an http:// or https:// URL without credentials, a query or a fragment',
      ],
      [
        { keyId: 'alias/strongroom', region: 'eu-west-1', endpoint: 'https://user:hunter2@kms.local/' },
        'KmsRootKey endpoint must be an http:// or https:// URL without credentials, a query or a fragment',
      ],
    ];
    for (const [options, message] of refused) {
      expect(() => new KmsRootKey(options as ConstructorParameters<typeof KmsRootKey>[0])).toThrow(
        new TypeError(message),
      );
    }
    const asked: string[] = [];
    const recording = (async (url: string | URL | Request) => {
      asked.push(String(url));
      return new Response('{}', { status: 400 });
    }) as typeof fetch;
    for (const region of ['eu-west-1', 'cn-north-1', 'us-gov-west-1', 'us-iso-east-1', 'eusc-de-east-1']) {
      const key = new KmsRootKey({
        keyId: 'alias/strongroom',
        region,
        credentials: async () => CREDENTIALS,
        fetch: recording,
        maxRetries: 0,
      });
      await expect(key.wrapKey(new Uint8Array(32))).rejects.toThrow(RootKeyUnavailable);
    }
    expect(asked).toEqual([
      'https://kms.eu-west-1.amazonaws.com/',
      'https://kms.cn-north-1.amazonaws.com.cn/',
      'https://kms.us-gov-west-1.amazonaws.com/',
      'https://kms.us-iso-east-1.c2s.ic.gov/',
      'https://kms.eusc-de-east-1.amazonaws.eu/',
    ]);
  });

  it('an unreachable KMS is RootKeyUnavailable', async () => {
    await fake.stop();
    const storage = new EncryptedStorage({
      storage: new MemoryStorage(),
      key: provider({ maxRetries: 1, timeoutMs: 2_000 }),
    });
    await expect(storage.open()).rejects.toThrow(RootKeyUnavailable);
    fake = await startFakeKms({ credentials: {} });
  });
});
