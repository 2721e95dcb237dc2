// `strongroom operator rekey -new-key-file=PATH` for a server whose root key is the key file in its data directory, as
// docs/production.md walks an operator through it: the new file is created (mode 0600), the running server keeps
// serving, and after the file replaces root.key the next start opens the data with it while the old file no longer
// does. Also how the command refuses to be called wrongly.
import { copyFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, dataDir, request } from '../server/harness.js';
import { killLeftovers, ROOT_TOKEN, runCli, startCliServer } from './operator-harness.js';

let cli: string;

beforeAll(async () => {
  cli = await builtCli();
}, 120_000);
afterAll(() => killLeftovers());

const write = (url: string, path: string, value: string) =>
  request(url, { method: 'POST', path: `/v1/secret/data/${path}`, token: ROOT_TOKEN, body: { data: { value } } });
const read = async (url: string, path: string) =>
  (await request(url, { path: `/v1/secret/data/${path}`, token: ROOT_TOKEN })).json?.data?.data?.value;

describe('operator rekey with key files', () => {
  it('rekeys a running server to a new key file, which then replaces root.key', async () => {
    const dir = dataDir();
    const env = { STRONGROOM_DATA_DIR: dir, STRONGROOM_ROOT_KEY: '' };
    const server = await startCliServer(cli, env);
    expect((await write(server.url, 'before', 'one')).status).toBe(200);
    copyFileSync(join(dir, 'root.key'), join(dir, 'old.key'));

    const newFile = join(dir, 'root.key.new');
    const run = await runCli(cli, ['operator', 'rekey', `-new-key-file=${newFile}`], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Created ${newFile} with a fresh random root key (mode 0600)`);
    expect(statSync(newFile).mode & 0o777).toBe(0o600);

    // The running server keeps serving reads and writes.
    expect(await read(server.url, 'before')).toBe('one');
    expect((await write(server.url, 'after', 'two')).status).toBe(200);
    await server.stop();

    renameSync(newFile, join(dir, 'root.key'));
    const restarted = await startCliServer(cli, env);
    expect(await read(restarted.url, 'before')).toBe('one');
    expect(await read(restarted.url, 'after')).toBe('two');
    await restarted.stop();

    renameSync(join(dir, 'old.key'), join(dir, 'root.key'));
    const refused = await runCli(cli, ['server'], { ...env, PORT: '0' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the root key does not open the stored keyring');
  });

  it('refuses, with exit 1 and the usage, a call that gives the new key in no place, in two, or wrongly', async () => {
    const env = { STRONGROOM_DATA_DIR: dataDir(), STRONGROOM_ROOT_KEY: '', STRONGROOM_NEW_ROOT_KEY: '' };
    const cases: Array<[string[], Record<string, string>, string]> = [
      [[], {}, 'give the new root key in one place'],
      [['-new-key-file=/tmp/x.key'], { STRONGROOM_NEW_ROOT_KEY: 'a' }, 'give the new root key in one place'],
      [['-new-key-file'], {}, 'flag needs an argument: -new-key-file'],
      [['-new-key-file='], {}, '-new-key-file needs a path'],
      [['--new-key=1'], {}, 'flag provided but not defined: -new-key'],
      [['extra'], {}, 'Too many arguments (expected 0, got 1)'],
    ];
    for (const [args, extra, message] of cases) {
      const run = await runCli(cli, ['operator', 'rekey', ...args], { ...env, ...extra });
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain('usage: strongroom operator rekey');
      expect(run.code).toBe(1);
    }
    const badKey = await runCli(cli, ['operator', 'rekey'], { ...env, STRONGROOM_NEW_ROOT_KEY: 'c2hvcnQ=' });
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toContain('STRONGROOM_NEW_ROOT_KEY: the root key must be 32 bytes in standard base64');
    expect(badKey.stderr).not.toContain('c2hvcnQ=');
  });

  it('answers the operator group: its help, and an unknown subcommand', async () => {
    const help = await runCli(cli, ['operator', 'help'], {});
    expect(help.code).toBe(0);
    for (const name of ['rewrap', 'rekey', 'backup', 'restore']) expect(help.stdout).toContain(name);
    const usage = await runCli(cli, ['operator', 'rewrap', '-h'], {});
    expect(usage.code).toBe(0);
    expect(usage.stdout).toContain('usage: strongroom operator rewrap [-batch-size=100]');
    expect((await runCli(cli, ['help', 'operator'], {})).stdout).toContain('usage: strongroom operator <subcommand>');
    const unknown = await runCli(cli, ['operator', 'frobnicate'], {});
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown subcommand "frobnicate"');
  });
});
