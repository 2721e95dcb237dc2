// `strongroom token`, `policy`, `status`, `--version`, `-h` and `help COMMAND`, run as processes against a real
// server over HTTP, with Vault's output shapes and exit codes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { startServer } from '../server/harness.js';
import { cliWithServer, runCli } from './run-cli.js';

const ctx = cliWithServer();

const run = (args: string[], token = ctx.server.rootToken, stdin?: string) =>
  runCli(ctx.cli, args, { HOME: ctx.home, STRONGROOM_ADDR: ctx.server.url, STRONGROOM_TOKEN: token }, stdin);

describe('strongroom token', () => {
  it('creates a token with policies, TTL and metadata, and prints its fields', async () => {
    const made = await run(['token', 'create', '-policy=reader', '-policy=writer', '-ttl=1h', '-metadata=team=ops']);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^Key +Value\n--- +-----\ntoken +sr\.\S+\ntoken_accessor +\S+\ntoken_duration +1h\n/);
    expect(made.stdout).toMatch(/\ntoken_policies +\[default reader writer\]\n/);
    expect(made.stdout).toMatch(/\ntoken_meta_team +ops\n$/);
    const token = (await run(['token', 'create', '-field=token', '-ttl=2h'])).stdout;
    expect(token).toMatch(/^sr\.\S+$/);

    const looked = await run(['token', 'lookup', '-format=json', token]);
    expect(JSON.parse(looked.stdout).data).toMatchObject({ creation_ttl: 7200, policies: ['root'] });
    const self = await run(['token', 'lookup', '-field=creation_ttl'], token);
    expect(self.stdout).toBe('7200');
    const accessor = (await run(['token', 'lookup', '-field=accessor', token])).stdout;
    expect((await run(['token', 'lookup', '-accessor', '-field=creation_ttl', accessor])).stdout).toBe('7200');
  });

  it('renews the token in use or a named one, and revokes it', async () => {
    const token = (await run(['token', 'create', '-field=token', '-ttl=1h'])).stdout;
    const renewed = await run(['token', 'renew', '-increment=30m'], token);
    expect(renewed.code).toBe(0);
    expect(renewed.stdout).toMatch(/\ntoken_duration +30m\n/);
    expect((await run(['token', 'renew', '-increment=20m', '-field=token_duration', token])).stdout).toBe('20m');
    expect(await run(['token', 'revoke', token])).toMatchObject({
      code: 0,
      stdout: 'Success! Revoked token (if it existed)\n',
    });
    const after = await run(['token', 'lookup'], token);
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('Code: 403. Errors:\n\n* permission denied');

    const orphan = (await run(['token', 'create', '-orphan', '-field=token'])).stdout;
    expect((await run(['token', 'revoke', '-self'], orphan)).code).toBe(0);
    expect((await run(['token', 'lookup'], orphan)).code).toBe(2);
    expect((await run(['token', 'revoke'])).code).toBe(1);
  });
});

describe('strongroom policy', () => {
  it('writes a policy from a file and from stdin, reads, lists and deletes it, and the policy works', async () => {
    const file = join(ctx.home, 'reader.hcl');
    const text = 'path "secret/data/shared/*" {\n  capabilities = ["read"]\n}\n';
    writeFileSync(file, text);
    expect(await run(['policy', 'write', 'reader', file])).toMatchObject({
      code: 0,
      stdout: 'Success! Uploaded policy: reader\n',
    });
    expect(
      (await run(['policy', 'write', 'writer', '-'], undefined, 'path "secret/*" { capabilities = ["create"] }')).code,
    ).toBe(0);
    expect((await run(['policy', 'read', 'reader'])).stdout).toBe(`${text}\n`);
    expect((await run(['policy', 'list'])).stdout).toBe('default\nreader\nroot\nwriter\n');

    const reader = (await run(['token', 'create', '-policy=reader', '-field=token'])).stdout;
    await run(['kv', 'put', 'shared/x', 'a=1']);
    expect((await run(['kv', 'get', '-field=a', 'shared/x'], reader)).stdout).toBe('1');
    expect((await run(['kv', 'put', 'shared/x', 'a=2'], reader)).code).toBe(2);

    expect(await run(['policy', 'delete', 'writer'])).toMatchObject({ stdout: 'Success! Deleted policy: writer\n' });
    expect(await run(['policy', 'read', 'writer'])).toMatchObject({ code: 2, stderr: 'No policy named: writer\n' });
    expect((await run(['policy', 'write', 'bad', join(ctx.home, 'missing.hcl')])).code).toBe(1);
    expect((await run(['policy', 'write', 'bad', '-'], undefined, 'path "x" { nonsense }')).code).toBe(2);
  });
});

describe('strongroom status, --version and help', () => {
  it("prints Vault's status table without a token, and exits 2 when no server answers", async () => {
    const status = await runCli(ctx.cli, ['status'], { HOME: ctx.home, VAULT_ADDR: ctx.server.url });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^Key +Value\n--- +-----\nSeal Type +shamir\nInitialized +true\nSealed +false\n/);
    expect(status.stdout).toContain(`Version         ${packageJson.version}\n`);
    const down = await runCli(ctx.cli, ['status', '-address=http://127.0.0.1:9'], { HOME: ctx.home });
    expect(down.code).toBe(2);
  });

  it('answers --version, -h and help COMMAND with exit 0, and an unknown command with exit 1', async () => {
    expect(await runCli(ctx.cli, ['--version'], {})).toEqual({
      code: 0,
      stdout: `strongroom v${packageJson.version}\n`,
      stderr: '',
    });
    const overview = await runCli(ctx.cli, ['-h'], {});
    expect(overview.code).toBe(0);
    for (const name of ['server', 'status', 'login', 'kv', 'token', 'policy', 'operator'])
      expect(overview.stdout).toMatch(new RegExp(`\\n  ${name} +\\S`));
    const kvPut = await runCli(ctx.cli, ['help', 'kv', 'put'], {});
    expect(kvPut).toMatchObject({ code: 0, stderr: '' });
    expect(kvPut.stdout).toMatch(/^usage: strongroom kv put /);
    expect((await runCli(ctx.cli, ['kv', 'metadata', 'put', '-h'], {})).stdout).toMatch(
      /^usage: strongroom kv metadata put/,
    );
    expect((await runCli(ctx.cli, ['help', 'token'], {})).stdout).toContain('    create    makes a token');
    expect((await runCli(ctx.cli, ['help', 'nothing'], {})).code).toBe(1);
    expect((await runCli(ctx.cli, ['nothing'], {})).code).toBe(1);
    expect((await runCli(ctx.cli, ['kv', 'nothing'], {})).code).toBe(1);
  });
});

describe('over HTTPS', () => {
  it('trusts the CA in VAULT_CACERT (or -ca-cert), and refuses an unknown certificate with exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strongroom-cli-tls-'));
    const [certFile, keyFile] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyFile,
      ].concat(['-out', certFile, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1']),
      { stdio: 'ignore' },
    );
    const secure = await startServer({ tls: { cert: readFileSync(certFile), key: readFileSync(keyFile) } });
    try {
      const env = { HOME: ctx.home, VAULT_ADDR: secure.url, VAULT_TOKEN: secure.rootToken };
      expect(secure.url).toMatch(/^https:/);
      const put = await runCli(ctx.cli, ['kv', 'put', 'tls/x', 'a=1'], { ...env, VAULT_CACERT: certFile });
      expect(put.code).toBe(0);
      const get = await runCli(ctx.cli, ['kv', 'get', `-ca-cert=${certFile}`, '-field=a', 'tls/x'], env);
      expect(get).toEqual({ code: 0, stdout: '1', stderr: '' });
      const untrusted = await runCli(ctx.cli, ['kv', 'get', 'tls/x'], env);
      expect(untrusted.code).toBe(2);
      expect(untrusted.stderr).toContain('self-signed certificate');
      const missing = await runCli(ctx.cli, ['status'], { ...env, STRONGROOM_CACERT: join(dir, 'none.pem') });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/^cannot read the CA certificate /);
    } finally {
      await secure.stop();
    }
  });
});
