import { z } from 'zod';
import type { AuthContext } from '../context/auth-context.js';
import { documentFolder } from '../context/stored-document.js';
import type { CertificateType, TrustedCertificate } from '../pkcs7/trusted-certificate.js';
import { BUILTIN_CERTIFICATE_DATA } from './builtin-data.js';

/** The two kinds of certificate: `pkcs7` ones verify PKCS#7 documents, `identity` ones the detached signature. */
export const CERTIFICATE_TYPES = ['pkcs7', 'identity'] as const satisfies readonly CertificateType[];

const storedCertificate = z.object({
  /** The PEM text as registered. */
  aws_public_cert: z.string(),
  type: z.enum(CERTIFICATE_TYPES),
});

/** The stored `config/certificate/<cert_name>`. */
export type StoredCertificate = z.infer<typeof storedCertificate>;

/** The registered certificates: one document per cert_name. */
export const certificateDocuments = documentFolder({ folder: 'config/certificate/', shape: storedCertificate });

/**
 * The built-in AWS certificates, one per distinct public key (expiry is not enforced: AWS reuses keys across rotated
 * certificates).
 */
export const BUILTIN_CERTIFICATES: readonly TrustedCertificate[] = BUILTIN_CERTIFICATE_DATA.map((entry) =>
  Object.freeze({ name: entry.name, type: entry.type, pem: entry.pem, builtin: true }),
);

const BUILTIN_BY_TYPE: Readonly<Record<CertificateType, readonly TrustedCertificate[]>> = {
  pkcs7: Object.freeze(BUILTIN_CERTIFICATES.filter((certificate) => certificate.type === 'pkcs7')),
  identity: Object.freeze(BUILTIN_CERTIFICATES.filter((certificate) => certificate.type === 'identity')),
};

export function listCertificateNames(context: AuthContext): Promise<string[]> {
  return context.list(certificateDocuments);
}

/**
 * The certificates that verify documents of one kind: `pkcs7` for PKCS#7 documents (rsa2048 and DSA), `identity` for
 * the detached RSA signature of the identity document. Built-in certificates of that type come first, then the
 * registered ones of that type in name order. The folder is listed on every call (another engine over the same
 * storage may register one at any time); while it is empty, the answer is the built-in list object itself, so that
 * the signer lookup's snapshot of it serves every login, and no async layer is added to the listing.
 */
export function certificatesFor(context: AuthContext, type: CertificateType): Promise<readonly TrustedCertificate[]> {
  return context
    .list(certificateDocuments)
    .then((names) => (names.length === 0 ? BUILTIN_BY_TYPE[type] : withRegistered(context, type, names)));
}

async function withRegistered(
  context: AuthContext,
  type: CertificateType,
  names: readonly string[],
): Promise<readonly TrustedCertificate[]> {
  const registered: TrustedCertificate[] = [];
  for (const name of names) {
    const stored = await context.read(certificateDocuments.named(name));
    if (stored?.type === type)
      registered.push({ name, type, pem: `${stored.aws_public_cert.trim()}\n`, builtin: false });
  }
  return registered.length === 0 ? BUILTIN_BY_TYPE[type] : [...BUILTIN_BY_TYPE[type], ...registered];
}
