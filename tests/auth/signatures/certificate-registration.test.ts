// Registering a certificate that login could not use correctly is a 400 naming what cannot be read: a validity time
// node cannot read once became an Invalid Date, which every comparison answers false to, so a signer past its notAfter
// passed the signing-time check; a public key that never loads made a certificate that silently matched nothing.
import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { certificateDocuments } from '../../../src/auth/certificates/certificate-store.js';
import { AuthContext } from '../../../src/auth/context/auth-context.js';
import { FakeCloud } from '../../support/fake-cloud.js';
import { buildCms, createSigner, type TestSigner } from '../../support/synthetic-cms.js';
import { testStorage } from '../../support/test-storage.js';
import { errorOf } from '../admin-harness.js';
import { grantOf, loginHarness, refusalOf, SYNTHETIC } from '../login/login-harness.js';

/** The PEM of `pem` with the ASCII text `from` of its DER (a time, an OID's octets) replaced by `to` of equal length. */
function edited(pem: string, from: Buffer | string, to: Buffer | string): string {
  const der = Buffer.from(new X509Certificate(pem).raw);
  const at = der.indexOf(from);
  expect(at, `"${from.toString()}" in the certificate`).toBeGreaterThan(0);
  expect(der.indexOf(from, at + 1)).toBe(-1);
  Buffer.from(to).copy(der, at);
  const body = der.toString('base64').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

// rsaEncryption as the key's algorithm, and RSAES-OAEP (1.2.840.113549.1.1.7), whose parameters this key lacks.
const RSA_ENCRYPTION = Buffer.from('06092a864886f70d010101', 'hex');
const RSAES_OAEP = Buffer.from('06092a864886f70d010107', 'hex');

describe('config/certificate refuses what login cannot read, naming it', () => {
  // Valid 2010-01-01 to 2020-01-01 (UTCTime 100101000000Z, 200101000000Z): expired at the harness's clock (2026).
  let signer: TestSigner;
  beforeAll(async () => {
    signer = await createSigner({
      name: 'expired',
      notBefore: new Date('2010-01-01T00:00:00Z'),
      notAfter: new Date('2020-01-01T00:00:00Z'),
      serialNumber: '0badda7e',
    });
  });

  it.each([
    ['notAfter', '200101000000Z', '201301000000Z'],
    ['notAfter', '200101000000Z', '200230000000Z'],
    ['notBefore', '100101000000Z', '100101240000Z'],
    ['notBefore', '100101000000Z', '1001010000a0Z'],
  ])('a %s of %s read as %s is a 400', async (field, from, to) => {
    const pem = edited(signer.trusted.pem, from, to);
    expect(new X509Certificate(pem)[field === 'notAfter' ? 'validTo' : 'validFrom']).toBe('Bad time value');
    const h = loginHarness();
    const response = await h.write('config/certificate/odd', { aws_public_cert: pem });
    expect(response.status).toBe(400);
    expect(errorOf(response)).toBe(`invalid certificate; its validity time ${field} cannot be read`);
    expect((await h.read('config/certificate/odd')).status).toBe(404);
  });

  it('a public key that cannot be read is a 400', async () => {
    const pem = edited(signer.trusted.pem, RSA_ENCRYPTION, RSAES_OAEP);
    expect(() => new X509Certificate(pem).publicKey).toThrow();
    const h = loginHarness();
    const response = await h.write('config/certificate/odd', { aws_public_cert: pem, type: 'identity' });
    expect(response.status).toBe(400);
    expect(errorOf(response)).toBe('invalid certificate; its public key cannot be read');
  });

  it('the same certificate with readable times registers and bounds the signing time', async () => {
    const h = loginHarness();
    expect((await h.write('config/certificate/expired', { aws_public_cert: signer.trusted.pem })).status).toBe(204);
    h.addInstance(SYNTHETIC);
    await h.role('web', { auth_type: 'ec2', bound_ami_id: SYNTHETIC.imageId });
    const content = Buffer.from(JSON.stringify(SYNTHETIC));
    const late = buildCms({ content, signer, signingTime: new Date('2026-01-01T00:00:00Z') });
    expect(refusalOf(await h.login({ role: 'web', pkcs7: late }))).toEqual([
      403,
      'failed to verify the signature: signing time 2026-01-01T00:00:00.000Z is outside the validity of certificate "expired"',
    ]);
    const inTime = buildCms({ content, signer, signingTime: new Date('2019-12-31T23:59:59Z') });
    expect(grantOf(await h.login({ role: 'web', pkcs7: inTime })).internal_data.instance_id).toBe(SYNTHETIC.instanceId);
  });

  it('a certificate stored before these checks, whose notAfter cannot be read, signs no login', async () => {
    const storage = testStorage();
    const h = loginHarness({ storage });
    const pem = edited(signer.trusted.pem, '200101000000Z', '201301000000Z');
    await new AuthContext({ storage, cloud: new FakeCloud() }).update(certificateDocuments.named('legacy'), () => ({
      aws_public_cert: pem,
      type: 'pkcs7',
    }));
    h.addInstance(SYNTHETIC);
    await h.role('web', { auth_type: 'ec2', bound_ami_id: SYNTHETIC.imageId });
    const pkcs7 = buildCms({
      content: Buffer.from(JSON.stringify(SYNTHETIC)),
      signer,
      signingTime: new Date('2026-01-01T00:00:00Z'),
    });
    expect(refusalOf(await h.login({ role: 'web', pkcs7 }))).toEqual([
      403,
      'failed to verify the signature: no trusted certificate matches the signer',
    ]);
    expect(h.cloud.calls).toEqual([]);
  });
});
