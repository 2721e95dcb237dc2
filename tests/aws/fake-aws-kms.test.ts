// The combined fake AWS answers KMS at the same URL, accepting only keys it issued, with valid signatures.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KmsRootKey } from '../../src/adapters/aws/kms-root-key.js';
import { FakeAws } from '../../src/testing/index.js';

let aws: FakeAws;
beforeAll(async () => {
  aws = await FakeAws.start();
});
afterAll(() => aws.stop());

it('wraps and unwraps through the mounted KMS with a key the fake issued; a wrong secret is refused', async () => {
  aws.createUser({ accountId: '111122223333', userName: 'vault' });
  const key = aws.createAccessKey('111122223333', 'vault');
  const keyId = aws.kms.createKey('root');
  const root = new KmsRootKey({
    keyId,
    region: 'us-east-1',
    endpoint: aws.url,
    maxRetries: 0,
    credentials: async () => key,
  });
  const secret = new Uint8Array(32).fill(7);
  const wrapped = await root.wrapKey(secret);
  expect(Buffer.from(wrapped).equals(Buffer.from(secret))).toBe(false);
  expect(Buffer.from(await root.unwrapKey(wrapped))).toEqual(Buffer.from(secret));
  expect(aws.kms.calls.map((call) => [call.action, call.accessKeyId])).toEqual([
    ['Encrypt', key.accessKeyId],
    ['Decrypt', key.accessKeyId],
  ]);
  const forged = new KmsRootKey({
    keyId,
    region: 'us-east-1',
    endpoint: aws.url,
    maxRetries: 0,
    credentials: async () => ({ ...key, secretAccessKey: 'wrong' }),
  });
  await expect(forged.wrapKey(secret)).rejects.toThrow();
  expect(aws.kms.calls).toHaveLength(2);
});
