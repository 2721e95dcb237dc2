// The built-in certificates cover the regions AWS opened after the first set was taken (ap-east-2, ap-southeast-6) and
// the aws-eusc partition (eusc-de-east-1): without them, ec2 logins from there were refused with "no trusted
// certificate matches the signer".
import 'reflect-metadata';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { AsnParser } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_CERTIFICATE_DATA } from '../../../src/auth/certificates/builtin-data.js';
import { buildCms, type TestSigner } from '../../support/synthetic-cms.js';
import { loginHarness, refusalOf, SYNTHETIC, testSigner } from '../login/login-harness.js';

const REGIONS = ['ap-east-2', 'ap-southeast-6', 'eusc-de-east-1'] as const;

/** SHA-256 of each certificate's public key, as published (fixtures/README.md). */
const PINS: Record<'rsa2048' | 'rsa', Record<(typeof REGIONS)[number], string>> = {
  rsa2048: {
    'ap-east-2': 'b95b5790c8562e32a725d000391ca89d4ca702c1110c9525c1224e6c8e4a852b',
    'ap-southeast-6': 'c6b46c49ef70067282829db6820596e1976a6ad407b6d1c04ab9c62c5e33dff4',
    'eusc-de-east-1': '6cb2612df7ee0e9f218875dbb9794d1798aa93e61c93ff265d315fe72ee45e8d',
  },
  rsa: {
    'ap-east-2': 'fcc00e0cc57f2aea1f902a31343de4f77bb82cea76445e173f0481287055e82c',
    'ap-southeast-6': '2cf75d41afb42a805dae563dadd330938997234c712ca3f922240d32b356d0d9',
    'eusc-de-east-1': '148caa2dd205daa0ce70a3ac80edab8311031c5546f0946865e9fc16acab66cd',
  },
};

describe('built-in certificates of the newer regions', () => {
  it.each(REGIONS)('%s has its rsa2048 (pkcs7) and RSA (identity) certificates, pinned by public key', (region) => {
    for (const kind of ['rsa2048', 'rsa'] as const) {
      const entry = BUILTIN_CERTIFICATE_DATA.find(
        (candidate) => candidate.kind === kind && candidate.regions.includes(region),
      );
      expect(entry?.publicKeySha256, `${kind}/${region}`).toBe(PINS[kind][region]);
      expect(entry?.type).toBe(kind === 'rsa' ? 'identity' : 'pkcs7');
    }
  });

  describe('an ec2 login naming the region certificate as its signer', () => {
    let key: TestSigner;
    beforeAll(async () => {
      key = await testSigner();
    });

    // AWS's private keys are not at hand: a document whose signer identifier (issuer and serial number) names the
    // region's certificate, signed by another key, shows the certificate is found, and then that the signature is
    // checked against its key.
    it.each(REGIONS)('%s: the certificate is found and its key checks the signature', async (region) => {
      const pem = readFileSync(`fixtures/aws-certificates/rsa2048/${region}.pem`, 'utf8');
      const certificate = AsnParser.parse(new X509Certificate(pem).raw, Certificate);
      const h = loginHarness();
      h.addInstance({ ...SYNTHETIC, region });
      await h.role('web', { auth_type: 'ec2', bound_ami_id: SYNTHETIC.imageId });
      const content = Buffer.from(JSON.stringify({ ...SYNTHETIC, region }));
      const pkcs7 = buildCms({
        content,
        signer: { ...key, certificate },
        signingTime: new Date('2026-01-01T00:00:00Z'),
      });
      expect(refusalOf(await h.login({ role: 'web', pkcs7 }))).toEqual([
        403,
        'failed to verify the signature: signature mismatch',
      ]);
      expect(h.cloud.calls).toEqual([]);
    });
  });
});
