// Two servers over one SQLite file, as two processes of one deployment run: an ec2 login on one sees, at its very next
// request, the certificates and roles the other registers or removes. The login's path up to its signature verdict is
// kept lean (issue 31), and this is the rule it must keep: the certificate list and the role are read from the storage
// on every login, never remembered by the process that answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStorage } from '../../src/sqlite.js';
import { FakeCloud } from '../support/fake-cloud.js';
import { SYNTHETIC, syntheticPkcs7, testSigner } from '../auth/login/login-harness.js';
import { request, startServer, type Started } from './harness.js';

const ROOT_TOKEN = 'shared-storage-root-token';
const directory = mkdtempSync(join(tmpdir(), 'strongroom-ec2-shared-'));
const storages = [0, 1].map(() => new SqliteStorage({ path: join(directory, 'strongroom.db'), synchronous: 'normal' }));
const cloud = new FakeCloud();
let writer: Started;
let loginServer: Started;
let pkcs7: string;

const admin = (method: string, path: string, body?: unknown) =>
  request(writer.url, { method, path: `/v1/auth/aws/${path}`, token: ROOT_TOKEN, body });
const login = () =>
  request(loginServer.url, { method: 'POST', path: '/v1/auth/aws/login', body: { role: 'web', pkcs7 } });

beforeAll(async () => {
  writer = await startServer({ storage: storages[0], rootToken: ROOT_TOKEN, cloud });
  loginServer = await startServer({ storage: storages[1], rootToken: ROOT_TOKEN, cloud });
  cloud.addInstance(
    { instanceId: SYNTHETIC.instanceId, accountId: SYNTHETIC.accountId, imageId: SYNTHETIC.imageId },
    { region: SYNTHETIC.region },
  );
  pkcs7 = await syntheticPkcs7();
});

afterAll(async () => {
  await Promise.all([writer?.stop(), loginServer?.stop()]);
  await Promise.all(storages.map((storage) => storage.close()));
  rmSync(directory, { recursive: true, force: true });
});

describe('an ec2 login over HTTP reads certificates and roles that another server changed', () => {
  it('refuses a signer no server has registered (403), without naming anything the caller did not send', async () => {
    const response = await login();
    expect(response.status).toBe(403);
    expect(response.json.errors).toHaveLength(1);
    expect(response.json.errors[0]).toMatch(/^failed to verify the signature/);
  });

  it('verifies with a certificate the other server registered, then refuses the missing role (400)', async () => {
    const { trusted } = await testSigner();
    expect(
      (await admin('POST', 'config/certificate/test-ca', { aws_public_cert: trusted.pem, type: 'pkcs7' })).status,
    ).toBe(204);
    const response = await login();
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ errors: ['entry for role "web" not found'] });
  });

  it('logs in against the role the other server wrote, at once', async () => {
    expect((await admin('POST', 'role/web', { auth_type: 'ec2', bound_ami_id: SYNTHETIC.imageId })).status).toBe(204);
    const response = await login();
    expect(response.status).toBe(200);
    expect(response.json.auth.metadata).toMatchObject({ role: 'web', account_id: SYNTHETIC.accountId });
    expect(response.json.auth.client_token).toEqual(expect.any(String));
  });

  it('refuses again once the other server removed the role, then the certificate', async () => {
    expect((await admin('DELETE', 'role/web')).status).toBe(204);
    const withoutRole = await login();
    expect(withoutRole.status).toBe(400);
    expect(withoutRole.json).toEqual({ errors: ['entry for role "web" not found'] });

    expect((await admin('DELETE', 'config/certificate/test-ca')).status).toBe(204);
    const withoutCertificate = await login();
    expect(withoutCertificate.status).toBe(403);
    expect(withoutCertificate.json.errors[0]).toMatch(/^failed to verify the signature/);
  });
});
