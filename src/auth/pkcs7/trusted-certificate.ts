/**
 * A certificate the auth method trusts for verifying instance identity documents: the built-in AWS set plus those
 * registered through config/certificate. `pkcs7` certificates verify PKCS#7 documents (rsa2048 and DSA variants);
 * `identity` certificates verify the plain RSA signature of the identity document.
 */
export type CertificateType = 'pkcs7' | 'identity';

export interface TrustedCertificate {
  /** The region for built-in certificates (e.g. "rsa2048/us-east-1"), the cert_name for registered ones. */
  name: string;
  type: CertificateType;
  /** One PEM certificate block. */
  pem: string;
  builtin: boolean;
}
