import { X509Certificate, verify, type KeyObject } from 'node:crypto';
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
function withCertificate(certificate: TrustedCertificate, parsed: Omit<ParsedCertificate, 'certificate'>): ParsedCertificate {
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
  const decoded = items.map((candidate) => (parseTrustedCertificate(candidate) ? (cache.get(candidate.pem) ?? null) : null));
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
export function findTrustedCertificate(trusted: readonly TrustedCertificate[], issuer: Uint8Array, serialNumber: Uint8Array): ParsedCertificate | undefined {
  const hint = serialHint(serialNumber);
  const { items, hints, decoded } = snapshotOf(trusted);
  for (let index = 0; index < hints.length; index++) {
    if (hints[index] !== hint) continue;
    const parsed = decoded[index] as Decoded;
    if (parsed.serialNumber.equals(serialNumber) && parsed.issuer.equals(issuer)) return withCertificate(items[index] as TrustedCertificate, parsed);
  }
  return undefined;
}

function decode(pem: string): Decoded | null {
  try {
    const x509 = new X509Certificate(pem);
    const { issuer, serialNumber } = issuerAndSerialNumber(x509.raw);
    const publicKey = x509.publicKey;
    return {
      issuer,
      serialNumber,
      serialHint: serialHint(serialNumber),
      notBefore: new Date(x509.validFrom),
      notAfter: new Date(x509.validTo),
      publicKey,
      keyType: publicKey.asymmetricKeyType ?? '',
      rsa: publicKey.asymmetricKeyType === 'rsa' ? new RsaPublicKey(publicKey) : undefined,
    };
  } catch {
    return null;
  }
}

/**
 * The issuer Name and serial number of a certificate node:crypto has already parsed (which exposes neither as bytes):
 * Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber, signature, issuer, ... } }.
 */
function issuerAndSerialNumber(der: Buffer): { issuer: Buffer; serialNumber: Buffer } {
  const cursor = new BerCursor(der);
  cursor.enter(0x30, 'Certificate');
  cursor.enter(0x30, 'tbsCertificate');
  if (cursor.peek() === 0xa0) cursor.skip();
  const serialEnd = cursor.primitive(0x02, 'serialNumber');
  const serialNumber = Buffer.from(der.subarray(cursor.contentStart, serialEnd));
  cursor.skip();
  return { issuer: Buffer.from(readName(cursor)), serialNumber };
}

/** Whether `signature` over `data` verifies with the certificate's key (RSA PKCS#1 v1.5, or DSA with a DER signature). */
export function signatureVerifies(certificate: ParsedCertificate, hash: 'sha1' | 'sha256', data: Uint8Array, signature: Uint8Array): boolean {
  if (certificate.rsa) return certificate.rsa.verifies(hash, data, signature);
  try {
    return verify(hash, data, certificate.publicKey, signature);
  } catch {
    // OpenSSL rejects some garbled signatures by throwing rather than answering false; both mean "not signed by it".
    return false;
  }
}
