import { AuthenticationRefused, InvalidRequest } from '../../lib/errors.js';
import { decodeBase64 } from '../../lib/base64.js';
import { parseTrustedCertificate, signatureVerifies } from './parsed-certificate.js';
import type { VerifiedContent } from './pkcs7.js';
import type { TrustedCertificate } from './trusted-certificate.js';

// The document is well under 1 KB and an RSA signature at most 512 bytes; the caps bound an anonymous caller's work.
const MAX_IDENTITY_LENGTH = 16 * 1024;
const MAX_SIGNATURE_LENGTH = 2 * 1024;

/**
 * Verifies the `identity` + `signature` login pair: the base64 instance identity document and the base64 RSA PKCS#1
 * v1.5 SHA-256 signature over its exact bytes (the metadata service's `document` and `signature`). Every RSA
 * certificate in `trusted` (the built-in set and the registered `identity` certificates) is tried, all of them, so the
 * time taken does not reveal which one signed; the first that verifies is reported. Bad base64 is InvalidRequest
 * (400); no verifying certificate is AuthenticationRefused (403).
 */
export function verifyIdentitySignature(
  identity: string,
  signature: string,
  trusted: readonly TrustedCertificate[],
): VerifiedContent {
  const document =
    identity.length <= MAX_IDENTITY_LENGTH ? decodeBase64(identity, { ignoreWhitespace: true }) : undefined;
  if (!document || document.length === 0)
    throw new InvalidRequest('failed to base64 decode the instance identity document');
  const signatureBytes =
    signature.length <= MAX_SIGNATURE_LENGTH ? decodeBase64(signature, { ignoreWhitespace: true }) : undefined;
  if (!signatureBytes || signatureBytes.length === 0) {
    throw new InvalidRequest('failed to base64 decode the SHA256 RSA signature of the instance identity document');
  }

  let signer: TrustedCertificate | undefined;
  for (const candidate of trusted) {
    const parsed = parseTrustedCertificate(candidate);
    if (parsed?.keyType !== 'rsa') continue;
    if (signatureVerifies(parsed, 'sha256', document, signatureBytes)) signer ??= candidate;
  }
  if (!signer)
    throw new AuthenticationRefused('instance identity verification using SHA256 RSA signature is unsuccessful');
  return { content: document, signer, algorithm: 'RSA-SHA256' };
}
