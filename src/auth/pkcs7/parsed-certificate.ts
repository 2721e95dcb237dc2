import { X509Certificate, verify, type KeyObject } from 'node:crypto';
import { readTime } from './asn1-time.js';
import { BerCursor } from './ber.js';
import { readName } from './signed-data.js';
import { RsaPublicKey } from './rsa-signature.js';
import type { TrustedCertificate } from './trusted-certificate.js';

/** What signature verification needs from a trusted certificate, decoded once. */
export interface ParsedCertificate {
  certificate: TrustedCertificate;
  /** DER of the issuer Name, read as a signer's issuer is read, so the two compare byte for byte. */
  issuer: Buffer;
  /** The serial number's INTEGER content octets. */
  serialNumber: Buffer;
  notBefore: Date;
  notAfter: Date;
  publicKey: KeyObject;
  /** 'rsa', 'dsa', 'ec', ... as node:crypto names it. */
  keyType: string;
  /** The key ready for PKCS#1 v1.5 checks, when it is an RSA key. */
  rsa: RsaPublicKey | undefined;
}

// Certificates are few (the built-in set plus the registered ones) but are consulted on every login; the cap only
// bounds memory if registered certificates churn.
const MAX_CACHED = 1024;
const cache = new Map<string, Decoded | null>();

type Decoded = Omit<ParsedCertificate, 'certificate'> & {
  /** The serial number's length and last octet, one number: serials are random, so this rules out nearly every other. */
  serialHint: number;
};

function serialHint(serialNumber: Uint8Array): number {
  return serialNumber.length * 256 + (serialNumber[serialNumber.length - 1] ?? 0);
}

/**
 * Decodes a trusted certificate, memoized by its PEM. A certificate that does not decode yields undefined: it can
 * never match a signer, and one bad registered certificate must not break logins verified by the others.
 */
export function parseTrustedCertificate(certificate: TrustedCertificate): ParsedCertificate | undefined {
  let parsed = cache.get(certificate.pem);
  if (parsed === undefined) {
    parsed = decode(certificate.pem);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(certificate.pem, parsed);
  }
  return parsed === null ? undefined : withCertificate(certificate, parsed);
}

// Spelled out rather than spread: this runs on every login, and a spread copies at several times the cost.
function withCertificate(
  certificate: TrustedCertificate,
  parsed: Omit<ParsedCertificate, 'certificate'>,
): ParsedCertificate {
  const { issuer, serialNumber, notBefore, notAfter, publicKey, keyType, rsa } = parsed;
  return { certificate, issuer, serialNumber, notBefore, notAfter, publicKey, keyType, rsa };
}

/**
 * The decoded forms of one list of trusted certificates, in its order, with the serial hints side by side: a lookup
 * then reads one contiguous array instead of a cache entry per candidate. Kept per list object, and good for as long
 * as the list holds the same certificates with the same PEM text (checked by identity on every lookup).
 */
interface Snapshot {
  readonly items: readonly TrustedCertificate[];
  readonly pems: readonly string[];
  readonly hints: Float64Array;
  readonly decoded: readonly (Decoded | null)[];
}

const snapshots = new WeakMap<readonly TrustedCertificate[], Snapshot>();

function snapshotOf(trusted: readonly TrustedCertificate[]): Snapshot {
  const known = snapshots.get(trusted);
  if (known && stillHolds(known, trusted)) return known;
  const items = [...trusted];
  const decoded = items.map((candidate) =>
    parseTrustedCertificate(candidate) ? (cache.get(candidate.pem) ?? null) : null,
  );
  const snapshot: Snapshot = {
    items,
    pems: items.map((candidate) => candidate.pem),
    hints: Float64Array.from(decoded, (parsed) => parsed?.serialHint ?? -1),
    decoded,
  };
  snapshots.set(trusted, snapshot);
  return snapshot;
}

function stillHolds(snapshot: Snapshot, trusted: readonly TrustedCertificate[]): boolean {
  const { items, pems } = snapshot;
  if (items.length !== trusted.length) return false;
  for (let index = 0; index < items.length; index++) {
    const candidate = trusted[index] as TrustedCertificate;
    if (candidate !== items[index] || candidate.pem !== pems[index]) return false;
  }
  return true;
}

/**
 * The first trusted certificate with this issuer (DER) and serial number (INTEGER content octets), if any. Compares
 * serial hints before any bytes: the trusted set holds every region's certificate.
 */
export function findTrustedCertificate(
  trusted: readonly TrustedCertificate[],
  issuer: Uint8Array,
  serialNumber: Uint8Array,
): ParsedCertificate | undefined {
  const hint = serialHint(serialNumber);
  const { items, hints, decoded } = snapshotOf(trusted);
  for (let index = 0; index < hints.length; index++) {
    if (hints[index] !== hint) continue;
    const parsed = decoded[index] as Decoded;
    if (parsed.serialNumber.equals(serialNumber) && parsed.issuer.equals(issuer))
      return withCertificate(items[index] as TrustedCertificate, parsed);
  }
  return undefined;
}

function decode(pem: string): Decoded | null {
  try {
    return readCertificate(pem);
  } catch {
    return null;
  }
}

/**
 * What of a certificate cannot be read for verification, worded for an answer ("its public key cannot be read"), or
 * undefined when every part reads: registration refuses such a certificate, and login never trusts one.
 */
export function unreadablePart(pem: string): string | undefined {
  try {
    readCertificate(pem);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The value `read` answers, or an Error with `problem` as its message whatever `read` threw. */
function attempt<T>(problem: string, read: () => T): T {
  try {
    return read();
  } catch {
    throw new Error(problem);
  }
}

/**
 * Decodes the parts of a certificate that verification reads, each by its own rule. Its validity is read from the DER
 * as signing times are, not from node:crypto's text: a time that text cannot carry became an Invalid Date, which every
 * comparison answers false to, so the signing-time check let an expired signer through.
 */
function readCertificate(pem: string): Decoded {
  const x509 = attempt('the PEM block is not a parsable X.509 certificate', () => new X509Certificate(pem));
  const { publicKey, rsa } = attempt('its public key cannot be read', () => {
    const key = x509.publicKey;
    return { publicKey: key, rsa: key.asymmetricKeyType === 'rsa' ? new RsaPublicKey(key) : undefined };
  });
  const { issuer, serialNumber, notBefore, notAfter } = attempt(
    'its issuer, serial number or validity cannot be read',
    () => tbsFields(x509.raw),
  );
  return {
    issuer,
    serialNumber,
    serialHint: serialHint(serialNumber),
    notBefore: attempt('its validity time notBefore cannot be read', () => readTime(notBefore, 'notBefore')),
    notAfter: attempt('its validity time notAfter cannot be read', () => readTime(notAfter, 'notAfter')),
    publicKey,
    keyType: publicKey.asymmetricKeyType ?? '',
    rsa,
  };
}

/**
 * The issuer Name, serial number and validity times (as encoded) of a certificate node:crypto has already parsed,
 * which exposes none of them as bytes: Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL,
 * serialNumber, signature, issuer, validity SEQUENCE { notBefore, notAfter }, ... } }.
 */
function tbsFields(der: Buffer): { issuer: Buffer; serialNumber: Buffer; notBefore: Uint8Array; notAfter: Uint8Array } {
  const cursor = new BerCursor(der);
  cursor.enter(0x30, 'Certificate');
  cursor.enter(0x30, 'tbsCertificate');
  if (cursor.peek() === 0xa0) cursor.skip();
  const serialEnd = cursor.primitive(0x02, 'serialNumber');
  const serialNumber = Buffer.from(der.subarray(cursor.contentStart, serialEnd));
  cursor.skip();
  const issuer = Buffer.from(readName(cursor));
  cursor.enter(0x30, 'validity');
  const notBeforeStart = cursor.position;
  const notBefore = cursor.view(notBeforeStart, cursor.skip());
  const notAfterStart = cursor.position;
  return { issuer, serialNumber, notBefore, notAfter: cursor.view(notAfterStart, cursor.skip()) };
}

/** Whether `signature` over `data` verifies with the certificate's key (RSA PKCS#1 v1.5, or DSA with a DER signature). */
export function signatureVerifies(
  certificate: ParsedCertificate,
  hash: 'sha1' | 'sha256',
  data: Uint8Array,
  signature: Uint8Array,
): boolean {
  if (certificate.rsa) return certificate.rsa.verifies(hash, data, signature);
  try {
    return verify(hash, data, certificate.publicKey, signature);
  } catch {
    // OpenSSL rejects some garbled signatures by throwing rather than answering false; both mean "not signed by it".
    return false;
  }
}
