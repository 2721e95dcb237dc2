/**
 * Which documents a certificate verifies: `pkcs7` certificates verify PKCS#7 documents (rsa2048 and DSA variants);
 * `identity` certificates verify the plain RSA signature of the identity document.
 */
export type CertificateType = 'pkcs7' | 'identity';

/**
 * A certificate the auth method trusts for verifying instance identity documents: the built-in AWS set plus those
 * registered through config/certificate.
 */
export interface TrustedCertificate {
  /** The region for built-in certificates (e.g. "rsa2048/us-east-1"), the cert_name for registered ones. */
  name: string;
  type: CertificateType;
  /** One PEM certificate block. */
  pem: string;
  /** Whether it is one of AWS's certificates built into the engine rather than a registered one. */
  builtin: boolean;
}
