// The mount table's upgrade step: a storage without a table gets the mounts servers always had, once. A storage that
// holds data at auth/cloud/ (written before the table) keeps it mounted there; a new one mounts auth/aws/, as Vault's.
// Either way createServer's `kv` and `auth` are the engines those mounts serve.
import { afterEach, describe, expect, it } from 'vitest';
import { AuthMethod } from '../../../src/adapters/aws/auth-method.js';
import { KvEngine } from '../../../src/kv/index.js';
import { testStorage } from '../../support/test-storage.js';
import { request, startServer, type Started } from '../harness.js';

const ROOT = 'sr.upgrade';
const running: Started[] = [];
afterEach(async () => {
  for (const started of running.splice(0)) await started.stop();
});

async function serve(storage: ReturnType<typeof testStorage>) {
  const started = await startServer({ storage, rootToken: ROOT, env: {} });
  running.push(started);
  return {
    app: started.app,
    send: (options: Parameters<typeof request>[1]) => request(started.url, { token: ROOT, ...options }),
  };
}
const ROLE = { auth_type: 'ec2', bound_ami_id: ['ami-0123456789abcdef0'] };

describe('the upgrade step of the mount table', () => {
  it('keeps data written at auth/cloud/ before the table mounted there, served by createServer().auth', async () => {
    const storage = testStorage();
    await new AuthMethod({ storage, storagePrefix: 'auth/cloud/', env: {} }).handle({
      method: 'POST',
      path: 'role/web',
      body: ROLE,
    });
    await new KvEngine({ storage, storagePrefix: 'secret/' }).write('kept', { password: 'earlier' });

    const { app, send } = await serve(storage);
    expect(Object.keys((await send({ path: '/v1/sys/auth' })).json.data).sort()).toEqual(['cloud/', 'token/']);
    expect((await send({ path: '/v1/auth/cloud/role/web' })).json.data.bound_ami_id).toEqual(ROLE.bound_ami_id);
    expect((await send({ path: '/v1/auth/aws/role/web' })).status).toBe(404);
    expect((await send({ path: '/v1/secret/data/kept' })).json.data.data).toEqual({ password: 'earlier' });
    // What is written over HTTP is what the in-process engine reads, and the other way round.
    expect((await send({ method: 'POST', path: '/v1/auth/cloud/role/api', body: ROLE })).status).toBe(204);
    expect((await app.auth.handle({ method: 'GET', path: 'role/api' })).status).toBe(200);
    await app.kv.write('in-process', { n: 1 });
    expect((await send({ path: '/v1/secret/data/in-process' })).json.data.data).toEqual({ n: 1 });
  });

  it('mounts a new storage’s AWS auth method at auth/aws/, served by createServer().auth', async () => {
    const { app, send } = await serve(testStorage());
    expect(Object.keys((await send({ path: '/v1/sys/auth' })).json.data).sort()).toEqual(['aws/', 'token/']);
    expect((await send({ method: 'POST', path: '/v1/auth/aws/role/web', body: ROLE })).status).toBe(204);
    expect((await app.auth.handle({ method: 'GET', path: 'role/web' })).status).toBe(200);
    expect((await send({ path: '/v1/auth/cloud/role/web' })).status).toBe(404);
  });

  it('writes the defaults once: a mount disabled stays disabled at the next start', async () => {
    const storage = testStorage();
    const first = await serve(storage);
    expect((await first.send({ method: 'DELETE', path: '/v1/sys/mounts/secret' })).status).toBe(204);
    expect((await first.send({ method: 'DELETE', path: '/v1/sys/auth/aws' })).status).toBe(204);
    await running.pop()!.stop();
    const second = await serve(storage);
    expect((await second.send({ path: '/v1/sys/mounts' })).json.data).toEqual({});
    expect(Object.keys((await second.send({ path: '/v1/sys/auth' })).json.data)).toEqual(['token/']);
    expect((await second.send({ path: '/v1/secret/data/kept' })).status).toBe(404);
  });
});
