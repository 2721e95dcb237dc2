import { decodeBase64 } from '../../lib/base64.js';
import { InvalidRequest } from '../../lib/errors.js';
import { unreadablePart } from '../pkcs7/parsed-certificate.js';
import type { CertificateType } from '../pkcs7/trusted-certificate.js';
import { CERTIFICATE_TYPES } from './certificate-store.js';
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** The PEM text of `aws_public_cert`: base64 of the PEM is tried first, then the value is taken as PEM itself. */
function pemText(value: string): string {
  const decoded = decodeBase64(value.trim(), { ignoreWhitespace: true })?.toString('utf8');
  return decoded !== undefined && decoded.includes('-----BEGIN ') ? decoded : value;
}

/**
 * Validates a certificate to register: exactly one PEM CERTIFICATE block, with nothing but whitespace around it, that
 * parses as X.509 with a readable public key and validity. Answers the PEM text as given (after base64 decoding),
 * which is what a read shows.
 */
export function parseCertificateInput(value: string): string {
  if (value.trim() === '') throw new InvalidRequest('invalid aws_public_cert');
  const text = pemText(value);
  const blocks = [...text.matchAll(PEM_BLOCK)];
  const [block] = blocks;
  if (blocks.length !== 1 || !block || block[1] !== 'CERTIFICATE' || text.replace(block[0], '').trim() !== '') {
    throw new InvalidRequest('invalid certificate; should be one PEM block only');
  }
  // Read as login reads it, so that a certificate registered here is one login can use as it stands.
  const unreadable = unreadablePart(block[0]);
  if (unreadable !== undefined) throw new InvalidRequest(`invalid certificate; ${unreadable}`);
  return text;
}

export function parseCertificateType(value: string): CertificateType {
  const type = value.toLowerCase();
  if (!(CERTIFICATE_TYPES as readonly string[]).includes(type)) {
    throw new InvalidRequest(`invalid certificate type ${JSON.stringify(value)}`);
  }
  return type as CertificateType;
}
