import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Crypto from 'node:crypto';

/**
 * Timing leaks: every comparison of a secret an attacker presents (an ec2 nonce, a role tag's HMAC, the PKCS#7
 * message digest, the server-ID header) runs through crypto.timingSafeEqual on inputs of a length that does not
 * depend on the guess. The spy sees the comparisons; no test here measures time.
 */

const comparisons = vi.hoisted(() => ({ lengths: [] as [number, number][] }));

vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof Crypto>();
  const timingSafeEqual = (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
    comparisons.lengths.push([a.byteLength, b.byteLength]);
    return crypto.timingSafeEqual(a, b);
  };
  return { ...crypto, default: { ...crypto, timingSafeEqual }, timingSafeEqual };
});

const { admitLogin } = await import('../../src/auth/login/ec2/nonce.js');
const { parseRoleTag, signRoleTag, verifyRoleTag } = await import('../../src/auth/roles/role-tag.js');
const { checkServerIdHeader } = await import('../../src/auth/login/iam/server-id.js');
const { RequestHeaders } = await import('../../src/auth/login/iam/headers.js');
const { verifyPkcs7 } = await import('../../src/auth/pkcs7/pkcs7.js');
const { buildCms, createSigner } = await import('../support/synthetic-cms.js');

beforeEach(() => {
  comparisons.lengths.length = 0;
});

const entry = {
  role: 'web',
  client_nonce: 'the-stored-nonce-0123456789abcdef',
  creation_time: '2026-01-01T00:00:00Z',
  disallow_reauthentication: false,
  pending_time: '2026-01-01T00:00:00Z',
  expiration_time: '2026-02-01T00:00:00Z',
  last_updated_time: '2026-01-01T00:00:00Z',
};

const attempt = (suppliedNonce: string) => ({
  suppliedNonce,
  generatedNonce: 'unused',
  pendingTime: new Date('2026-01-01T00:00:00Z'),
  roleName: 'web',
  disallowReauthentication: false,
  allowInstanceMigration: false,
  now: new Date('2026-01-02T00:00:00Z'),
  lifetime: 3600,
});

describe('constant-time comparisons of presented secrets', () => {
  it('a nonce: guesses of every length and prefix compare as fixed-length digests', () => {
    for (const guess of ['', 'x', 'the-stored-nonce-0', 'the-stored-nonce-0123456789abcdeX', 'y'.repeat(4096)]) {
      comparisons.lengths.length = 0;
      expect(() => admitLogin(entry, attempt(guess))).toThrow();
      expect(comparisons.lengths.length).toBeGreaterThan(0);
      for (const [a, b] of comparisons.lengths) expect([a, b]).toEqual([32, 32]);
    }
  });

  it("a role tag's HMAC: a forged tag is compared in full, whatever it claims", () => {
    const key = 'k'.repeat(64);
    const genuine = signRoleTag(
      {
        nonce: 'bm9uY2U',
        role: 'web',
        instanceId: '',
        maxTtl: 0,
        disallowReauthentication: false,
        allowInstanceMigration: false,
      },
      key,
    );
    const forged = parseRoleTag(`${genuine.slice(0, genuine.lastIndexOf(':'))}:${'A'.repeat(43)}`);
    expect(verifyRoleTag(forged, key)).toBe(false);
    expect(comparisons.lengths).toEqual([[43, 43]]);
  });

  it('the server-ID header: equal-length digests, whatever was presented', () => {
    for (const presented of ['', 'vault', 'vault.example.co', 'z'.repeat(1000)]) {
      comparisons.lengths.length = 0;
      const headers = new RequestHeaders();
      headers.add('X-Service-Cloud-IAM-Server-ID', [presented]);
      expect(() => checkServerIdHeader(headers, 'vault.example.com', true)).toThrow();
      expect(comparisons.lengths).toEqual([[32, 32]]);
    }
  });

  it('the PKCS#7 message digest', async () => {
    const signer = await createSigner({
      name: 'timing CA',
      notBefore: new Date('2020-01-01'),
      notAfter: new Date('2100-01-01'),
      serialNumber: '0a',
    });
    const document = buildCms({
      content: Buffer.from('{"instanceId":"i-1"}'),
      signer,
      messageDigest: Buffer.alloc(32, 7),
    });
    expect(() => verifyPkcs7(document, [signer.trusted])).toThrow(/message digest does not match/);
    expect(comparisons.lengths).toContainEqual([32, 32]);
  });
});
