import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { CloudUnavailable } from '../../../src/lib/errors.js';
import { AuthMethod } from '../../../src/index.js';
import { IdentityDocumentSigner } from '../../../src/testing/index.js';
import { FaultyStorage } from '../../support/faulty-storage.js';
import { testStorage } from '../../support/test-storage.js';
import { adminHarness, dataOf, errorOf, warningsOf } from '../admin-harness.js';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

describe('config/client', () => {
  it('reads 404 until written, then every field with its default, never the secret key', async () => {
    const h = adminHarness();
    expect((await h.read('config/client')).status).toBe(404);
    expect((await h.write('config/client', { access_key: 'AKIAEXAMPLE', secret_key: SECRET })).status).toBe(204);
    const response = await h.read('config/client');
    expect(dataOf(response)).toEqual({
      access_key: 'AKIAEXAMPLE',
      endpoint: '',
      iam_endpoint: '',
      sts_endpoint: '',
      sts_region: '',
      use_sts_region_from_client: false,
      allowed_sts_regions: [],
      iam_server_id_header_value: '',
      allowed_sts_header_values: [],
      max_retries: -1,
      instance_cache_seconds: 0,
    });
    expect(JSON.stringify(response)).not.toContain(SECRET);
  });

  it('updates only the supplied fields and keeps the secret key', async () => {
    const h = adminHarness();
    await h.write('config/client', { access_key: 'AKIA1', secret_key: SECRET, endpoint: 'https://ec2.example.test' });
    await h.write('config/client', {
      sts_endpoint: 'http://127.0.0.1:9000',
      sts_region: 'eu-west-1',
      iam_server_id_header_value: 'vault.example.com',
      use_sts_region_from_client: 'true',
      max_retries: '3',
      allowed_sts_header_values: 'x-custom-header, X-OTHER',
    });
    const data = dataOf(await h.read('config/client'));
    expect(data).toMatchObject({
      access_key: 'AKIA1',
      endpoint: 'https://ec2.example.test',
      sts_endpoint: 'http://127.0.0.1:9000',
      sts_region: 'eu-west-1',
      iam_server_id_header_value: 'vault.example.com',
      use_sts_region_from_client: true,
      max_retries: 3,
      allowed_sts_header_values: ['X-Custom-Header', 'X-Other'],
    });
    const stored = JSON.parse(new TextDecoder().decode(await h.storage.get('auth/config/client')));
    expect(stored.secret_key).toBe(SECRET);
  });

  it('asks for create on the first write and update afterwards', async () => {
    const h = adminHarness();
    const seen: string[] = [];
    const authorize = ({ capability }: { capability: string }) => {
      seen.push(capability);
      return true;
    };
    await h.call('POST', 'config/client', { endpoint: '' }, { authorize });
    await h.call('POST', 'config/client', { endpoint: '' }, { authorize });
    expect(seen).toEqual(['create', 'update']);
  });

  it('refuses endpoints that are not http(s) URLs and out-of-range retries with 400', async () => {
    const h = adminHarness();
    for (const body of [
      { endpoint: 'ftp://x' },
      { iam_endpoint: 'not a url' },
      { sts_endpoint: 'file:///etc/passwd' },
      { max_retries: -2 },
      { max_retries: 'many' },
    ]) {
      const response = await h.write('config/client', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect(errorOf(await h.write('config/client', { allowed_sts_header_values: 'bad header' }))).toContain(
      'not a valid header name',
    );
    expect((await h.read('config/client')).status).toBe(404);
  });

  it('refuses endpoints carrying credentials, a query or a fragment at write, without echoing them', async () => {
    const h = adminHarness();
    for (const value of [
      'https://user:hunter2@sts.example.com/',
      'https://sts.example.com/?token=hunter2',
      'https://sts.example.com/#hunter2',
    ]) {
      for (const field of ['endpoint', 'iam_endpoint', 'sts_endpoint']) {
        const response = await h.write('config/client', { [field]: value });
        expect(response.status).toBe(400);
        expect(errorOf(response)).toBe(
          `invalid value for field "${field}": must be an http:// or https:// URL without credentials, a query or a fragment`,
        );
      }
    }
    expect((await h.read('config/client')).status).toBe(404);
  });

  it('a stored endpoint with credentials (written before the rule) fails logins without showing them to the caller', async () => {
    const storage = testStorage();
    const signer = await IdentityDocumentSigner.create();
    const auth = new AuthMethod({ storage, env: {} });
    const configured = await auth.handle({
      method: 'POST',
      path: 'config/client',
      body: { access_key: 'AKIAEXAMPLE', secret_key: SECRET },
    });
    expect(configured.status).toBe(204);
    const stored = JSON.parse(new TextDecoder().decode(await storage.get('auth/config/client'))) as Record<
      string,
      unknown
    >;
    await storage.put(
      'auth/config/client',
      new TextEncoder().encode(JSON.stringify({ ...stored, endpoint: 'https://user:hunter2@ec2.example.com/' })),
    );
    const certified = await auth.handle({
      method: 'POST',
      path: 'config/certificate/test',
      body: { aws_public_cert: signer.certificatePem },
    });
    expect(certified.status).toBe(204);
    const role = await auth.handle({
      method: 'POST',
      path: 'role/web',
      body: { auth_type: 'ec2', bound_ami_id: 'ami-1' },
    });
    expect(role.status).toBe(204);
    const { pkcs7 } = signer.sign({
      instanceId: 'i-0123456789abcdef0',
      accountId: '111122223333',
      region: 'us-east-1',
      imageId: 'ami-1',
    });
    const login = await auth.handle({ method: 'POST', path: 'login', body: { role: 'web', pkcs7 } });
    expect({ status: login.status, body: login.body }).toMatchObject({ status: 502 });
    expect(JSON.stringify(login.body)).toContain(
      'endpoint must be an http:// or https:// URL without credentials, a query or a fragment',
    );
    expect(JSON.stringify(login.body)).not.toContain('hunter2');
  });

  it('DELETE removes the configuration', async () => {
    const h = adminHarness();
    await h.write('config/client', { access_key: 'AKIA1' });
    expect((await h.remove('config/client')).status).toBe(204);
    expect((await h.read('config/client')).status).toBe(404);
    expect((await h.remove('config/client')).status).toBe(204);
  });

  it('answers 500 without the secret when storage fails, and stores nothing', async () => {
    const storage = new FaultyStorage(new MemoryStorage());
    const h = adminHarness({ storage });
    storage.arm(1, { only: ['put', 'compareAndPut'] });
    const response = await h.write('config/client', { access_key: 'AKIA1', secret_key: SECRET });
    expect(response.status).toBe(500);
    expect(JSON.stringify(response)).not.toContain(SECRET);
    expect((await h.read('config/client')).status).toBe(404);
  });
});

describe('config/rotate-root', () => {
  async function rotatable() {
    const h = adminHarness({ env: { CLOUD_REGION: 'eu-central-1' } });
    h.cloud.addUserWithKey('ellen', { accessKeyId: 'AKIAOLD', secretAccessKey: SECRET });
    await h.write('config/client', {
      access_key: 'AKIAOLD',
      secret_key: SECRET,
      iam_endpoint: 'https://iam.example.test',
    });
    return h;
  }

  it('creates a new key, stores it, deletes the old one, and answers only the new key id', async () => {
    const h = await rotatable();
    const response = await h.write('config/rotate-root');
    expect(response.status).toBe(200);
    const { access_key } = dataOf(response) as { access_key: string };
    expect(access_key).not.toBe('AKIAOLD');
    expect(h.cloud.accessKeysOf('ellen')).toEqual([access_key]);
    expect(dataOf(await h.read('config/client')).access_key).toBe(access_key);
    expect(h.cloud.calls.map((call) => call.method)).toEqual(['getCurrentUser', 'createAccessKey', 'deleteAccessKey']);
    const [first] = h.cloud.calls;
    expect(first!.scope).toMatchObject({
      region: 'eu-central-1',
      settings: { accessKey: 'AKIAOLD', iamEndpoint: 'https://iam.example.test' },
    });
    expect(h.cloud.callsTo('deleteAccessKey')[0]!.args).toEqual(['ellen', 'AKIAOLD']);
    expect(JSON.stringify(response)).not.toMatch(/fake-secret/);

    // The stored key is the live one: a second rotation works with it.
    expect((await h.write('config/rotate-root')).status).toBe(200);
    expect(h.cloud.accessKeysOf('ellen')).toHaveLength(1);
  });

  it('needs a configuration with both keys', async () => {
    const h = adminHarness();
    expect(errorOf(await h.write('config/rotate-root'))).toBe("can't update client config because it's unset");
    await h.write('config/client', { secret_key: SECRET });
    expect(errorOf(await h.write('config/rotate-root'))).toBe("can't update access_key because it's unset");
    await h.write('config/client', { access_key: 'AKIA1', secret_key: '' });
    expect(errorOf(await h.write('config/rotate-root'))).toBe("can't update secret_key because it's unset");
    expect(h.cloud.calls).toEqual([]);
  });

  it('fails and changes nothing when the user already has a second key', async () => {
    const h = await rotatable();
    await h.cloud.createAccessKey({ settings: { accessKey: 'AKIAOLD', secretKey: SECRET } as never }, 'ellen');
    const before = await h.read('config/client');
    const response = await h.write('config/rotate-root');
    expect(response.status).toBe(502);
    expect(errorOf(response)).toContain('error calling CreateAccessKey: LimitExceeded');
    expect(await h.read('config/client')).toEqual(before);
    expect(h.cloud.callsTo('deleteAccessKey')).toEqual([]);
  });

  it('deletes the new key again when it cannot be stored', async () => {
    const storage = new FaultyStorage(new MemoryStorage());
    const h = adminHarness({ storage });
    h.cloud.addUserWithKey('ellen', { accessKeyId: 'AKIAOLD', secretAccessKey: SECRET });
    await h.write('config/client', { access_key: 'AKIAOLD', secret_key: SECRET });
    storage.arm(1, { only: ['compareAndPut'] });
    const response = await h.write('config/rotate-root');
    expect(response.status).toBe(500);
    expect(h.cloud.accessKeysOf('ellen')).toEqual(['AKIAOLD']);
    expect(dataOf(await h.read('config/client')).access_key).toBe('AKIAOLD');
  });

  it('keeps the rotation and warns when the old key cannot be deleted', async () => {
    const h = await rotatable();
    h.cloud.failOn('deleteAccessKey', new CloudUnavailable('ServiceFailure: try later'), 1);
    const response = await h.write('config/rotate-root');
    expect(response.status).toBe(200);
    const { access_key } = dataOf(response);
    expect(dataOf(await h.read('config/client')).access_key).toBe(access_key);
    expect(warningsOf(response)[0]).toContain('the old access key AKIAOLD was not deleted');
    expect(JSON.stringify(response)).not.toContain(SECRET);
  });

  it('answers 502 when the provider is unreachable, without its untyped error text', async () => {
    const h = await rotatable();
    h.cloud.failOn('getCurrentUser', new Error(`connect ECONNREFUSED; key=${SECRET}`));
    const response = await h.write('config/rotate-root');
    expect(response.status).toBe(502);
    expect(JSON.stringify(response)).not.toContain(SECRET);
  });
});

describe('config/client secrets', () => {
  it('never echoes a refused secret_key', async () => {
    const h = adminHarness();
    for (const secret_key of [[SECRET], { value: SECRET }, 12345678901234, `${SECRET}${'x'.repeat(2000)}`]) {
      const response = await h.write('config/client', { secret_key });
      expect(response.status).toBe(400);
      expect(errorOf(response)).toBe(
        'invalid value for field "secret_key": expected a string of at most 1024 characters',
      );
      expect(JSON.stringify(response)).not.toContain(SECRET);
      expect(JSON.stringify(response)).not.toContain('12345678901234');
    }
  });
});
