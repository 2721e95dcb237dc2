// End to end against `npm start` (the `strongroom server` command): node-vault from npm and Debian's
// python3-hvac drive the token API, policies and KV, as users' services would.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import vault from 'node-vault';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDir, failure } from './harness.js';
import { hvacHere } from '../support/hvac.js';

const ROOT = 'sr.e2e-root';
let child: ChildProcess;
let url: string;

const root = new URL('../../', import.meta.url).pathname;

// `npm start` itself, as a user runs it: its prestart step builds dist/ when the sources are newer (a no-op in CI,
// which builds first). It runs in a process group of its own so that the server npm starts is killed with it.
beforeAll(async () => {
  child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    detached: true,
    env: { ...process.env, PORT: '0', STRONGROOM_ROOT_TOKEN: ROOT, STRONGROOM_DATA_DIR: dataDir() },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let banner = '';
  url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(banner);
      if (found) resolve(found[1]!);
    });
    child.on('exit', () => reject(new Error(`npm start exited:\n${banner}`)));
  });
}, 300_000);

afterAll(() => {
  if (child?.pid) process.kill(-child.pid, 'SIGKILL');
});

describe('node-vault', () => {
  it('manages policies, creates, looks up, renews and revokes tokens, and uses KV', async () => {
    const admin = vault({ endpoint: url, token: ROOT });
    await admin.addPolicy({
      name: 'nv-app',
      rules: 'path "secret/data/nv/*" { capabilities = ["create", "read", "update"] }',
    });
    expect((await admin.policies()).policies).toContain('nv-app');
    const created = await admin.tokenCreate({ policies: ['nv-app'], ttl: '1h' });
    // node-vault adopts the token a tokenCreate answers (its tokenSource rule); the admin goes on as root.
    expect(admin.token).toBe(created.auth.client_token);
    admin.token = ROOT;
    const app = vault({ endpoint: url, token: created.auth.client_token });
    await app.write('secret/data/nv/db', { data: { password: 'from-node-vault' } });
    expect((await app.read('secret/data/nv/db')).data.data).toEqual({ password: 'from-node-vault' });
    expect((await failure(app.write('secret/data/other', { data: { x: 1 } }))).statusCode).toBe(403);
    expect((await app.tokenLookupSelf()).data.policies).toEqual(['default', 'nv-app']);
    expect((await admin.tokenLookup({ token: created.auth.client_token })).data.accessor).toBe(created.auth.accessor);
    expect((await admin.tokenLookupAccessor({ accessor: created.auth.accessor })).data.policies).toEqual([
      'default',
      'nv-app',
    ]);
    expect((await app.tokenRenewSelf({ increment: '2h' })).auth.lease_duration).toBe(7200);
    expect((await admin.tokenRenew({ token: created.auth.client_token, increment: 600 })).auth.lease_duration).toBe(
      600,
    );
    admin.token = ROOT;
    await admin.tokenRevoke({ token: created.auth.client_token });
    expect((await failure(app.tokenLookupSelf())).statusCode).toBe(403);
    const other = await admin.tokenCreate({ policies: ['nv-app'] });
    admin.token = ROOT;
    await admin.tokenRevokeAccessor({ accessor: other.auth.accessor });
    expect((await failure(vault({ endpoint: url, token: other.auth.client_token }).tokenLookupSelf())).statusCode).toBe(
      403,
    );
    await admin.removePolicy({ name: 'nv-app' });
  });
});

describe.skipIf(!hvacHere)('python3-hvac', () => {
  it('manages policies, the token API and KV v2', async () => {
    const script = new URL('./clients/hvac_drive.py', import.meta.url).pathname;
    const { stdout } = await promisify(execFile)('/usr/bin/python3', [script], {
      env: { ...process.env, VAULT_ADDR: url, VAULT_TOKEN: ROOT },
    });
    const report = JSON.parse(stdout);
    expect(report).toEqual({
      authenticated: true,
      policies: expect.arrayContaining(['default', 'py-app', 'root']),
      policy: 'path "secret/data/py/*" { capabilities = ["create", "read", "update"] }',
      created: { policies: ['default', 'py-app'], lease_duration: 3600, renewable: true, orphan: false },
      read: { password: 'from-hvac' },
      lookup_self: { policies: ['default', 'py-app'], meta: { who: 'hvac' }, path: 'auth/token/create' },
      renewed: 1800,
      lookup_accessor: true,
      denied: true,
      listed: ['db'],
      revoked_works: false,
      health_version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      policies_after: expect.not.arrayContaining(['py-app']),
    });
  }, 60_000);
});
