import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AuthenticationRefused, InvalidRequest, isStrongroomError } from '../../../src/lib/errors.js';
import { verifyIdentitySignature } from '../../../src/auth/pkcs7/identity-signature.js';
import type { TrustedCertificate } from '../../../src/auth/pkcs7/trusted-certificate.js';
import { allAwsCertificates, awsCertificates, sampleCertificate, sampleFile } from '../../support/aws-fixtures.js';
import { failure } from '../../support/failure.js';

const SAMPLE = 'iid-verify-us-west-2-2018';
const document = Buffer.from(sampleFile(SAMPLE, 'document'));
const identity = document.toString('base64');
const signature = sampleFile(SAMPLE, 'signature');
const generic = sampleCertificate(SAMPLE, 'cert-rsa-signature-ec2.amazonaws.com.pem', 'identity');

describe('identity + signature', () => {
  it('verifies the genuine document with the generic certificate, whose validity has long ended', () => {
    const result = verifyIdentitySignature(identity, signature, [generic]);
    expect(result.content.equals(document)).toBe(true);
    expect(result.signer).toBe(generic);
    expect(result.algorithm).toBe('RSA-SHA256');
  });

  it('verifies against the whole built-in set, skipping DSA certificates, and reports the first that verifies', () => {
    const result = verifyIdentitySignature(identity, signature, [...awsCertificates('dsa'), ...allAwsCertificates()]);
    expect(result.signer.name).toBe('rsa/ap-northeast-1');
  });

  it('accepts the signature with or without its line breaks', () => {
    expect(verifyIdentitySignature(identity, signature.replace(/\s/g, ''), [generic]).content.equals(document)).toBe(
      true,
    );
  });

  it('refuses a document changed in any byte', () => {
    for (let index = 0; index < document.length; index++) {
      const tampered = Buffer.from(document);
      tampered[index] = (tampered[index] as number) ^ 0x20;
      expect(failure(() => verifyIdentitySignature(tampered.toString('base64'), signature, [generic]))).toBeInstanceOf(
        AuthenticationRefused,
      );
    }
  });

  it('refuses a changed or truncated signature, and the wrong certificates', () => {
    const bytes = Buffer.from(signature, 'base64');
    for (const index of [0, 64, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[index] = (tampered[index] as number) ^ 1;
      expect(failure(() => verifyIdentitySignature(identity, tampered.toString('base64'), [generic]))).toBeInstanceOf(
        AuthenticationRefused,
      );
    }
    expect(
      failure(() => verifyIdentitySignature(identity, bytes.subarray(1).toString('base64'), [generic])),
    ).toBeInstanceOf(AuthenticationRefused);
    const error = failure(() =>
      verifyIdentitySignature(identity, signature, [...awsCertificates('rsa2048'), ...awsCertificates('dsa')]),
    );
    expect(error).toBeInstanceOf(AuthenticationRefused);
    expect(error.message).toBe('instance identity verification using SHA256 RSA signature is unsuccessful');
    expect(failure(() => verifyIdentitySignature(identity, signature, []))).toBeInstanceOf(AuthenticationRefused);
  });

  it('skips a certificate that does not decode', () => {
    const broken: TrustedCertificate = { name: 'broken', type: 'identity', pem: 'not a certificate', builtin: false };
    expect(verifyIdentitySignature(identity, signature, [broken, generic]).signer).toBe(generic);
  });

  it.each([
    ['an empty identity', '', signature, 'failed to base64 decode the instance identity document'],
    [
      'a non-base64 identity',
      '{"instanceId":"i-1"}',
      signature,
      'failed to base64 decode the instance identity document',
    ],
    ['an oversized identity', 'A'.repeat(20_000), signature, 'failed to base64 decode the instance identity document'],
    [
      'an empty signature',
      identity,
      '',
      'failed to base64 decode the SHA256 RSA signature of the instance identity document',
    ],
    [
      'a non-base64 signature',
      identity,
      'sig!',
      'failed to base64 decode the SHA256 RSA signature of the instance identity document',
    ],
  ])('%s is a 400', (_name, identityField, signatureField, message) => {
    const error = failure(() => verifyIdentitySignature(identityField, signatureField, [generic]));
    expect(error).toBeInstanceOf(InvalidRequest);
    expect(error.message).toBe(message);
  });

  it('random signatures give a typed error, never an untyped exception', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        try {
          verifyIdentitySignature(identity, Buffer.from(bytes).toString('base64'), allAwsCertificates());
        } catch (error) {
          expect(isStrongroomError(error)).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
  });
});
