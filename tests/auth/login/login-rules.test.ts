import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { AccessListEntry } from '../../../src/auth/lists/accesslist.js';
import { BUILTIN_CERTIFICATES } from '../../../src/auth/certificates/certificate-store.js';
import { admitLogin, MAX_NONCE_LENGTH, type LoginAttempt } from '../../../src/auth/login/ec2/nonce.js';
import { maxTtlBounds } from '../../../src/auth/login/common/ttl.js';
import { parseTrustedCertificate } from '../../../src/auth/pkcs7/parsed-certificate.js';
import { isStrongroomError } from '../../../src/lib/errors.js';
import { formatTimestamp } from '../../../src/lib/time.js';
import { awsCertificates } from '../../support/aws-fixtures.js';

describe('max TTL arithmetic', () => {
  it('takes the shortest and longest of the set limits, the mount maximum always among them', () => {
    expect(maxTtlBounds(100, 0, 0)).toEqual({ shortest: 100, longest: 100 });
    expect(maxTtlBounds(100, 50, 0)).toEqual({ shortest: 50, longest: 100 });
    expect(maxTtlBounds(100, 500, 20)).toEqual({ shortest: 20, longest: 500 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e9 }),
        fc.array(fc.integer({ min: 0, max: 1e9 }), { maxLength: 3 }),
        (mount, limits) => {
          const { shortest, longest } = maxTtlBounds(mount, ...limits);
          const set = [mount, ...limits.filter((limit) => limit > 0)];
          expect(set).toContain(shortest);
          expect(set).toContain(longest);
          expect(set.every((limit) => shortest <= limit && limit <= longest)).toBe(true);
        },
      ),
    );
  });
});

describe('access list rules (admitLogin)', () => {
  const t = (hours: number) => new Date(Date.UTC(2026, 0, 1, hours));
  const nonce = fc.oneof(fc.constant('n1'), fc.constant('n2'), fc.constant(''), fc.string({ maxLength: 140 }));
  const entry: fc.Arbitrary<AccessListEntry> = fc.record({
    role: fc.constant('web'),
    client_nonce: fc.oneof(fc.constant('n1'), fc.constant('')),
    creation_time: fc.constant(formatTimestamp(t(0))),
    disallow_reauthentication: fc.boolean(),
    pending_time: fc.integer({ min: 0, max: 4 }).map((hours) => formatTimestamp(t(hours))),
    expiration_time: fc.constant(formatTimestamp(t(100))),
    last_updated_time: fc.constant(formatTimestamp(t(1))),
  });
  const attempt: fc.Arbitrary<LoginAttempt> = fc.record({
    suppliedNonce: fc.option(nonce, { nil: undefined }),
    generatedNonce: fc.constant('generated-nonce'),
    pendingTime: fc.integer({ min: 0, max: 4 }).map(t),
    roleName: fc.constant('Web'),
    disallowReauthentication: fc.boolean(),
    allowInstanceMigration: fc.boolean(),
    now: fc.constant(t(10)),
    lifetime: fc.constant(3600),
  });

  it('admits a re-login only with the stored nonce, or after a migration to a strictly newer pendingTime', () => {
    fc.assert(
      fc.property(fc.option(entry, { nil: undefined }), attempt, (current, login) => {
        let outcome: ReturnType<typeof admitLogin>;
        try {
          outcome = admitLogin(current, login);
        } catch (error) {
          if (!isStrongroomError(error) || ![400, 403].includes(error.status)) throw error;
          return;
        }
        const { entry: next, returnedNonce } = outcome;
        const disallow = login.disallowReauthentication || login.suppliedNonce === '';
        expect(next.disallow_reauthentication).toBe(disallow);
        expect(next.client_nonce === '').toBe(disallow || login.suppliedNonce === '');
        if (!disallow) expect(next.client_nonce.length).toBeLessThanOrEqual(MAX_NONCE_LENGTH);
        expect(next.pending_time).toBe(formatTimestamp(login.pendingTime));
        expect(next.expiration_time).toBe(formatTimestamp(t(11)));
        if (returnedNonce !== undefined) {
          expect(login.suppliedNonce).toBeUndefined();
          expect(returnedNonce).toBe(next.client_nonce);
        }
        if (!current) {
          expect(next.role).toBe('Web');
          return;
        }
        expect(current.disallow_reauthentication).toBe(false);
        expect(next.creation_time).toBe(current.creation_time);
        expect(next.role).toBe(current.role);
        const stored = new Date(current.pending_time);
        expect(login.pendingTime >= stored).toBe(true);
        const sameNonce = (login.suppliedNonce ?? '') === current.client_nonce && current.client_nonce !== '';
        expect(sameNonce || (login.allowInstanceMigration && login.pendingTime > stored)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('built-in certificates', () => {
  it("find every region's rsa2048 and DSA signer by issuer and serial, with its own key, after deduplication", () => {
    const builtins = BUILTIN_CERTIFICATES.filter((certificate) => certificate.type === 'pkcs7').map((certificate) =>
      parseTrustedCertificate(certificate)!,
    );
    const fixtures = [...awsCertificates('rsa2048'), ...awsCertificates('dsa')];
    expect(fixtures.length).toBeGreaterThanOrEqual(70);
    for (const fixture of fixtures) {
      const wanted = parseTrustedCertificate(fixture)!;
      const found = builtins.find(
        (candidate) => candidate.serialNumber.equals(wanted.serialNumber) && candidate.issuer.equals(wanted.issuer),
      );
      expect(found, fixture.name).toBeDefined();
      expect(found!.publicKey.equals(wanted.publicKey), fixture.name).toBe(true);
    }
  });

  it("hold every region's RSA-1024 identity key", () => {
    const builtins = BUILTIN_CERTIFICATES.filter((certificate) => certificate.type === 'identity').map((certificate) =>
      parseTrustedCertificate(certificate)!,
    );
    for (const fixture of awsCertificates('rsa')) {
      const wanted = parseTrustedCertificate(fixture)!;
      expect(
        builtins.some((candidate) => candidate.publicKey.equals(wanted.publicKey)),
        fixture.name,
      ).toBe(true);
    }
  });
});
