// `strongroom kv ...` run as a process against a real server over HTTP: every subcommand, Vault's argument forms
// (key=value, key=@file, - for JSON on stdin), -mount, -version, -field, -format, and Vault's exit codes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { request } from '../server/harness.js';
import { cliWithServer, runCli } from './run-cli.js';

const ctx = cliWithServer();

const kv = (args: string[], stdin?: string) =>
  runCli(
    ctx.cli,
    ['kv', ...args],
    { HOME: ctx.home, VAULT_ADDR: ctx.server.url, VAULT_TOKEN: ctx.server.rootToken },
    stdin,
  );
const stored = async (path: string) =>
  (await request(ctx.server.url, { path: `/v1/secret/data/${path}`, token: ctx.server.rootToken })).json?.data;

describe('strongroom kv put and get', () => {
  it('writes key=value pairs and reads them back as a table, as JSON and as one field', async () => {
    const put = await kv(['put', 'app/db', 'user=alice', 'password=s3cret']);
    expect(put).toMatchObject({ code: 0, stderr: '' });
    expect(put.stdout).toMatch(/^=+ Secret Path =+\nsecret\/data\/app\/db\n\n=+ Metadata =+\nKey +Value\n--- +-----\n/);
    expect(put.stdout).toMatch(/\nversion +1\n/);
    expect((await stored('app/db')).data).toEqual({ user: 'alice', password: 's3cret' });

    const table = await kv(['get', 'app/db']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/=+ Data =+\nKey +Value\n--- +-----\npassword +s3cret\nuser +alice\n$/);

    const json = await kv(['get', '-format=json', 'app/db']);
    expect(JSON.parse(json.stdout).data.data).toEqual({ user: 'alice', password: 's3cret' });

    // Vault prints a field without a newline into a pipe, so $(...) and files get the value exactly.
    expect(await kv(['get', '-field=password', 'app/db'])).toEqual({ code: 0, stdout: 's3cret', stderr: '' });
    expect(await kv(['get', '--field', 'user', 'app/db'])).toMatchObject({ code: 0, stdout: 'alice' });
  });

  it('takes a value from a file with key=@file and a whole JSON body from stdin with -', async () => {
    const file = join(ctx.home, 'cert.pem');
    writeFileSync(file, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    expect((await kv(['put', 'app/tls', 'cert=@' + file, 'name=web'])).code).toBe(0);
    expect((await stored('app/tls')).data).toEqual({
      cert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
      name: 'web',
    });
    expect((await kv(['put', 'app/json', '-'], '{"port": 5432, "tags": ["a", "b"]}')).code).toBe(0);
    expect((await stored('app/json')).data).toEqual({ port: 5432, tags: ['a', 'b'] });
  });

  it('reads an older version with -version, and patches the latest keeping the other keys', async () => {
    await kv(['put', 'app/v', 'a=1', 'b=1']);
    expect((await kv(['patch', 'app/v', 'b=2'])).code).toBe(0);
    expect((await stored('app/v')).data).toEqual({ a: '1', b: '2' });
    expect((await kv(['get', '-version=1', '-field=b', 'app/v'])).stdout).toBe('1');
    expect((await kv(['put', '-cas=1', 'app/v', 'a=3'])).code).toBe(2);
  });

  it('uses the mount -mount names', async () => {
    const other = await kv(['put', '-mount=elsewhere', 'app/x', 'a=1']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('URL: POST ' + ctx.server.url + '/v1/elsewhere/data/app/x');
    expect((await kv(['get', '-mount=secret', '-field=user', 'app/db'])).stdout).toBe('alice');
  });
});

describe('strongroom kv list, delete, undelete, destroy and metadata', () => {
  it('lists names under a path', async () => {
    await kv(['put', 'team/a', 'x=1']);
    await kv(['put', 'team/sub/b', 'x=1']);
    expect(await kv(['list', 'team'])).toEqual({ code: 0, stdout: 'Keys\n----\na\nsub/\n', stderr: '' });
    expect(JSON.parse((await kv(['list', '-format=json', 'team'])).stdout).data.keys).toEqual(['a', 'sub/']);
    const none = await kv(['list', 'nothing-here']);
    expect(none).toMatchObject({ code: 2, stderr: 'No value found at secret/metadata/nothing-here\n' });
  });

  it('deletes, undeletes and destroys versions', async () => {
    await kv(['put', 'life/s', 'v=1']);
    await kv(['put', 'life/s', 'v=2']);
    expect(await kv(['delete', 'life/s'])).toMatchObject({
      code: 0,
      stdout: 'Success! Data deleted (if it existed) at: secret/data/life/s\n',
    });
    const gone = await kv(['get', 'life/s']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toMatch(/^No value found at secret\/data\/life\/s \(version 2 was deleted at /);
    expect((await kv(['undelete', '-versions=2', 'life/s'])).code).toBe(0);
    expect((await kv(['get', '-field=v', 'life/s'])).stdout).toBe('2');
    expect((await kv(['destroy', '-versions=1', 'life/s'])).stdout).toBe(
      'Success! Data written to: secret/destroy/life/s\n',
    );
    expect((await kv(['get', '-version=1', 'life/s'])).code).toBe(2);
    expect((await kv(['delete', '-versions=2', 'life/s'])).code).toBe(0);
    expect((await kv(['get', 'life/s'])).code).toBe(2);
  });

  it("sets, prints and deletes a secret's metadata", async () => {
    await kv(['put', 'meta/s', 'v=1']);
    const put = await kv([
      'metadata',
      'put',
      '-max-versions=3',
      '-cas-required',
      '-custom-metadata=owner=ops',
      '-custom-metadata=tier=1',
      'meta/s',
    ]);
    expect(put).toMatchObject({ code: 0, stdout: 'Success! Data written to: secret/metadata/meta/s\n' });
    const shown = await kv(['metadata', 'get', 'meta/s']);
    expect(shown.stdout).toMatch(/^=+ Metadata Path =+\nsecret\/metadata\/meta\/s\n\n=+ Metadata =+\n/);
    expect(shown.stdout).toMatch(/\ncas_required +true\n/);
    expect(shown.stdout).toMatch(/\ncustom_metadata +map\[owner:ops tier:1\]\n/);
    expect(shown.stdout).toMatch(/\nmax_versions +3\n/);
    expect(shown.stdout).toMatch(/=+ Version 1 =+\nKey +Value\n/);
    expect((await kv(['metadata', 'get', '-field=max_versions', 'meta/s'])).stdout).toBe('3');
    expect((await kv(['metadata', 'delete', 'meta/s'])).code).toBe(0);
    expect((await kv(['metadata', 'get', 'meta/s'])).code).toBe(2);
  });

  it('sets destroy_version_after, and a bad duration is the server error with exit 2', async () => {
    const put = await kv(['metadata', 'put', '-destroy-version-after=720h', 'meta/lifetime']);
    expect(put).toMatchObject({ code: 0, stdout: 'Success! Data written to: secret/metadata/meta/lifetime\n' });
    const shown = await kv(['metadata', 'get', '-field=destroy_version_after', 'meta/lifetime']);
    expect(shown).toMatchObject({ code: 0, stdout: '720h0m0s' });
    const bad = await kv(['metadata', 'put', '-destroy-version-after=soon', 'meta/lifetime']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('destroy_version_after');
  });
});

describe("strongroom kv: Vault's exit codes", () => {
  it('exits 1 with the usage for a mistake in the call, and 2 with the server error for a refusal', async () => {
    const unknown = await kv(['get', '-bogus', 'app/db']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^flag provided but not defined: -bogus\n\nusage: strongroom kv get/);
    expect((await kv(['put', 'app/only-path'])).stderr).toMatch(/^Must supply data\n/);
    expect((await kv(['put', 'app/x', 'novalue'])).code).toBe(1);
    expect((await kv(['put', 'app/x', 'a=@/nonexistent/file'])).code).toBe(1);
    expect((await kv(['get', '-format=yaml', 'app/db'])).code).toBe(1);
    expect((await kv(['get', '-field=nope', 'app/db'])).stderr).toBe('Field "nope" not present in secret\n');

    const denied = await runCli(ctx.cli, ['kv', 'get', 'app/db'], {
      HOME: ctx.home,
      VAULT_ADDR: ctx.server.url,
      VAULT_TOKEN: 'sr.not-a-token',
    });
    expect(denied.code).toBe(2);
    expect(denied.stderr).toBe(
      `Error making API request.\n\nURL: GET ${ctx.server.url}/v1/secret/data/app/db\nCode: 403. Errors:\n\n* permission denied\n`,
    );
    expect(denied.stdout).toBe('');

    const nobody = await runCli(ctx.cli, ['kv', 'get', 'app/db'], { HOME: ctx.home, VAULT_ADDR: 'http://127.0.0.1:9' });
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toContain('ECONNREFUSED');
  });
});
