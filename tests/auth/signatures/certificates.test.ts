import { spawnSync } from 'node:child_process';
import { X509Certificate, createHash, verify } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthContext } from '../../../src/auth/context/auth-context.js';
import { BUILTIN_CERTIFICATE_DATA } from '../../../src/auth/certificates/builtin-data.js';
import { BUILTIN_CERTIFICATES, certificatesFor } from '../../../src/auth/certificates/certificate-store.js';
import { FakeCloud } from '../../support/fake-cloud.js';
import { testStorage } from '../../support/test-storage.js';
import { adminHarness, dataOf, errorOf } from '../admin-harness.js';

const DSA_PEM = readFileSync('fixtures/aws-certificates/dsa/us-east-1.pem', 'utf8');
const RSA2048_PEM = readFileSync('fixtures/aws-certificates/rsa2048/us-west-2.pem', 'utf8');
const SAMPLE = 'fixtures/aws-iid-samples/iid-verify-us-west-2-2018';

function spkiFingerprint(pem: string): string {
  return createHash('sha256')
    .update(new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

describe('config/certificate', () => {
  it('registers a base64 PEM and reads back the decoded text exactly, default type pkcs7', async () => {
    const h = adminHarness();
    const seen: string[] = [];
    const authorize = ({ capability }: { capability: string }) => (seen.push(capability), true);
    const body = { aws_public_cert: Buffer.from(DSA_PEM).toString('base64') };
    expect((await h.call('POST', 'config/certificate/cert1', body, { authorize })).status).toBe(204);
    expect(dataOf(await h.read('config/certificate/cert1'))).toEqual({ aws_public_cert: DSA_PEM, type: 'pkcs7' });
    await h.call('POST', 'config/certificate/cert1', body, { authorize });
    expect(seen).toEqual(['create', 'update']);
  });

  it('registers a raw PEM with type identity (any casing); an update without type keeps it', async () => {
    const h = adminHarness();
    await h.write('config/certificate/cert2', { aws_public_cert: RSA2048_PEM, type: 'IDENTITY' });
    expect(dataOf(await h.read('config/certificate/cert2')).type).toBe('identity');
    await h.write('config/certificate/cert2', { aws_public_cert: DSA_PEM });
    expect(dataOf(await h.read('config/certificate/cert2'))).toEqual({ aws_public_cert: DSA_PEM, type: 'identity' });
  });

  it('lists and deletes registered certificates', async () => {
    const h = adminHarness();
    await h.write('config/certificate/cert1', { aws_public_cert: DSA_PEM });
    await h.write('config/certificate/cert2', { aws_public_cert: RSA2048_PEM });
    expect(dataOf(await h.list('config/certificates'))).toEqual({ keys: ['cert1', 'cert2'] });
    expect((await h.remove('config/certificate/cert1')).status).toBe(204);
    expect((await h.remove('config/certificate/cert2')).status).toBe(204);
    expect((await h.list('config/certificates')).status).toBe(404);
    expect((await h.read('config/certificate/cert1')).status).toBe(404);
  });

  it('refuses anything but exactly one parsable certificate, with 400', async () => {
    const h = adminHarness();
    expect(errorOf(await h.write('config/certificate/c', {}))).toBe('missing aws_public_cert');
    expect(errorOf(await h.write('config/certificate/c', { aws_public_cert: '' }))).toBe('invalid aws_public_cert');
    const oneBlockOnly = 'invalid certificate; should be one PEM block only';
    expect(errorOf(await h.write('config/certificate/c', { aws_public_cert: DSA_PEM + RSA2048_PEM }))).toBe(
      oneBlockOnly,
    );
    expect(errorOf(await h.write('config/certificate/c', { aws_public_cert: `${DSA_PEM}trailing text` }))).toBe(
      oneBlockOnly,
    );
    expect(errorOf(await h.write('config/certificate/c', { aws_public_cert: 'not a certificate' }))).toBe(oneBlockOnly);
    const key = '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n';
    expect(errorOf(await h.write('config/certificate/c', { aws_public_cert: key }))).toBe(oneBlockOnly);
    const garbage = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
    expect(errorOf(await h.write('config/certificate/c', { aws_public_cert: garbage }))).toContain(
      'not a parsable X.509 certificate',
    );
    expect(errorOf(await h.write('config/certificate/c', { aws_public_cert: DSA_PEM, type: 'rsa' }))).toBe(
      'invalid certificate type "rsa"',
    );
    expect((await h.list('config/certificates')).status).toBe(404);
  });

  it('certificatesFor gives login the built-in certificates of the type, then the registered ones', async () => {
    const storage = testStorage();
    const h = adminHarness({ storage });
    await h.write('config/certificate/mine', { aws_public_cert: RSA2048_PEM, type: 'pkcs7' });
    await h.write('config/certificate/other', { aws_public_cert: `\n${DSA_PEM}\n`, type: 'identity' });
    const context = new AuthContext({ storage, cloud: new FakeCloud() });

    const pkcs7 = await certificatesFor(context, 'pkcs7');
    expect(pkcs7.at(-1)).toEqual({ name: 'mine', type: 'pkcs7', pem: `${RSA2048_PEM.trim()}\n`, builtin: false });
    expect(pkcs7.slice(0, -1).every((certificate) => certificate.builtin && certificate.type === 'pkcs7')).toBe(true);

    const identity = await certificatesFor(context, 'identity');
    expect(identity.at(-1)).toEqual({ name: 'other', type: 'identity', pem: `${DSA_PEM.trim()}\n`, builtin: false });
    expect(identity.filter((certificate) => certificate.builtin)).toHaveLength(
      BUILTIN_CERTIFICATES.filter((c) => c.type === 'identity').length,
    );
  });
});

describe('built-in certificates', () => {
  const kinds = ['rsa2048', 'dsa', 'rsa'] as const;

  it('pin every region certificate of every kind by public key, each key once', () => {
    const pinned = new Set(BUILTIN_CERTIFICATE_DATA.map((entry) => entry.publicKeySha256));
    expect(pinned.size).toBe(BUILTIN_CERTIFICATE_DATA.length);
    for (const kind of kinds) {
      for (const file of readdirSync(`fixtures/aws-certificates/${kind}`)) {
        const fingerprint = spkiFingerprint(readFileSync(`fixtures/aws-certificates/${kind}/${file}`, 'utf8'));
        const entry = BUILTIN_CERTIFICATE_DATA.find((candidate) => candidate.publicKeySha256 === fingerprint);
        expect(entry?.kind, `${kind}/${file}`).toBe(kind);
        expect(entry?.regions).toContain(file.replace('.pem', ''));
      }
    }
  });

  it('carry the right type and a PEM whose key is the pinned one', () => {
    for (const entry of BUILTIN_CERTIFICATE_DATA) {
      expect(entry.type).toBe(entry.kind === 'rsa' ? 'identity' : 'pkcs7');
      expect(spkiFingerprint(entry.pem)).toBe(entry.publicKeySha256);
    }
    expect(BUILTIN_CERTIFICATES.every((certificate) => certificate.builtin)).toBe(true);
  });

  it('verify a genuine 2018 detached signature (a rotated certificate reusing the old key)', () => {
    const document = readFileSync(`${SAMPLE}/document`);
    const signature = Buffer.from(readFileSync(`${SAMPLE}/signature`, 'utf8'), 'base64');
    const verifying = BUILTIN_CERTIFICATES.filter(
      (certificate) =>
        certificate.type === 'identity' &&
        verify('sha256', document, new X509Certificate(certificate.pem).publicKey, signature),
    );
    expect(verifying).toHaveLength(1);
  });

  it('are generated from the fixtures by the script, and the generated module is current', () => {
    const result = spawnSync(process.execPath, ['scripts/generate-certificates.mjs', '--check'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(readFileSync('src/auth/certificates/builtin-data.ts', 'utf8')).toMatch(
      /^\/\/ GENERATED by scripts\/generate-certificates\.mjs/,
    );
  });

  it('are generated only from certificate files with a recorded source, each listed once', () => {
    const root = mkdtempSync(join(tmpdir(), 'strongroom-certificates-'));
    try {
      cpSync('scripts/generate-certificates.mjs', join(root, 'scripts/generate-certificates.mjs'));
      cpSync('fixtures/aws-certificates', join(root, 'fixtures/aws-certificates'), { recursive: true });
      mkdirSync(join(root, 'src/auth/certificates'), { recursive: true });
      const generate = () =>
        spawnSync(process.execPath, [join(root, 'scripts/generate-certificates.mjs')], { encoding: 'utf8' });
      const manifest = join(root, 'fixtures/aws-certificates/SOURCES.json');
      const sources = JSON.parse(readFileSync(manifest, 'utf8'));

      expect(generate().status).toBe(0);
      expect(readFileSync(join(root, 'src/auth/certificates/builtin-data.ts'), 'utf8')).toBe(
        readFileSync('src/auth/certificates/builtin-data.ts', 'utf8'),
      );

      writeFileSync(join(root, 'fixtures/aws-certificates/rsa2048/xx-test-1.pem'), RSA2048_PEM);
      expect(generate()).toMatchObject({ status: 1, stderr: 'rsa2048/xx-test-1.pem has no source in SOURCES.json\n' });
      rmSync(join(root, 'fixtures/aws-certificates/rsa2048/xx-test-1.pem'));

      const twice = structuredClone(sources);
      twice.sources[1].files.push(twice.sources[0].files[0]);
      writeFileSync(manifest, JSON.stringify(twice));
      expect(generate()).toMatchObject({
        status: 1,
        stderr: `SOURCES.json lists ${sources.sources[0].files[0]} under two sources\n`,
      });

      const missing = structuredClone(sources);
      missing.sources[0].files.push('dsa/xx-test-1.pem');
      writeFileSync(manifest, JSON.stringify(missing));
      expect(generate()).toMatchObject({
        status: 1,
        stderr: 'SOURCES.json lists dsa/xx-test-1.pem, which does not exist\n',
      });

      const unlicensed = structuredClone(sources);
      delete unlicensed.sources[0].license;
      writeFileSync(manifest, JSON.stringify(unlicensed));
      expect(generate()).toMatchObject({
        status: 1,
        stderr: 'SOURCES.json: every source needs an origin, a license and its files\n',
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
