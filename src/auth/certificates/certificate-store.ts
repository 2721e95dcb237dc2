import type { AuthContext } from '../context/auth-context.js';
import type { CertificateType, TrustedCertificate } from '../pkcs7/trusted-certificate.js';
import { BUILTIN_CERTIFICATE_DATA } from './builtin-data.js';

/** Storage folder of the registered certificates, relative to the storage prefix; one document per cert_name. */
export const CERTIFICATE_FOLDER = 'config/certificate/';

/** The stored `config/certificate/<cert_name>`. */
export interface StoredCertificate {
  /** The PEM text as registered. */
  aws_public_cert: string;
  type: CertificateType;
}

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

export async function readCertificate(context: AuthContext, name: string): Promise<StoredCertificate | undefined> {
  return context.get<StoredCertificate>(CERTIFICATE_FOLDER + name);
}

/** Whether a name listed in the certificate folder is a certificate (a sub-folder ends with '/'). */
function isCertificateName(name: string): boolean {
  return !name.endsWith('/');
}

export async function listCertificateNames(context: AuthContext): Promise<string[]> {
  return (await context.list(CERTIFICATE_FOLDER)).filter(isCertificateName);
}

/**
 * The certificates that verify documents of one kind: `pkcs7` for PKCS#7 documents (rsa2048 and DSA), `identity` for
 * the detached RSA signature of the identity document. Built-in certificates of that type come first, then the
 * registered ones of that type in name order.
 */
export async function certificatesFor(context: AuthContext, type: CertificateType): Promise<readonly TrustedCertificate[]> {
  // Listed here rather than through listCertificateNames: every ec2 login waits on this, and the extra async layer
  // and the filtered copy showed in its profile.
  const registered: TrustedCertificate[] = [];
  for (const name of await context.list(CERTIFICATE_FOLDER)) {
    if (!isCertificateName(name)) continue;
    const stored = await readCertificate(context, name);
    if (stored?.type === type) registered.push({ name, type, pem: `${stored.aws_public_cert.trim()}\n`, builtin: false });
  }
  // The same list object while none is registered, so that the signer lookup's snapshot of it serves every login.
  return registered.length === 0 ? BUILTIN_BY_TYPE[type] : [...BUILTIN_BY_TYPE[type], ...registered];
}
