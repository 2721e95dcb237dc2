import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CertificateType, TrustedCertificate } from '../../src/auth/pkcs7/trusted-certificate.js';

/** The public AWS fixtures (fixtures/README.md) as test inputs. */

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export type CertificateKind = 'rsa2048' | 'dsa' | 'rsa';

/** Every region's certificate of one kind, named `<kind>/<region>`, as built-in certificates would be. */
export function awsCertificates(kind: CertificateKind): TrustedCertificate[] {
  const folder = `${FIXTURES}aws-certificates/${kind}/`;
  const type: CertificateType = kind === 'rsa' ? 'identity' : 'pkcs7';
  return readdirSync(folder)
    .filter((file) => file.endsWith('.pem'))
    .sort()
    .map((file) => ({
      name: `${kind}/${file.slice(0, -4)}`,
      type,
      pem: readFileSync(folder + file, 'utf8'),
      builtin: true,
    }));
}

/** All three kinds, as the built-in set. */
export function allAwsCertificates(): TrustedCertificate[] {
  return [...awsCertificates('rsa2048'), ...awsCertificates('dsa'), ...awsCertificates('rsa')];
}

export type SampleName = 'iid-verify-us-west-2-2018' | 'pkcs7-go-us-east-1-2016' | 'teleport-us-west-2-2021';

/** One file of a genuine sample folder (`document`, `pkcs7`, `rsa2048`, `signature`, `cert-*.pem`). */
export function sampleFile(sample: SampleName, file: string): string {
  return readFileSync(`${FIXTURES}aws-iid-samples/${sample}/${file}`, 'utf8');
}

/** A sample's own certificate file as a trusted certificate. */
export function sampleCertificate(
  sample: SampleName,
  file: string,
  type: CertificateType = 'pkcs7',
): TrustedCertificate {
  return { name: `${sample}/${file}`, type, pem: sampleFile(sample, file), builtin: false };
}
