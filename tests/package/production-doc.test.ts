/**
 * Every command in docs/production.md is run by this test, so the page cannot drift from what the command does. Each
 * ```sh block runs with `bash -e` in a fresh scratch directory, and must exit 0:
 *
 * - The built `strongroom` command is on PATH, and `npx strongroom` finds it (the scratch directory is an app with it
 *   in node_modules/.bin, as `npm install strongroom` leaves it; npm runs offline).
 * - Paths under /var/lib/strongroom, /var/log/strongroom, /etc/strongroom and /backups are moved into the scratch
 *   directory, which has those folders. PORT is 0 (a free port) unless the block sets it.
 *
 * A marker, an HTML comment on the last non-blank line above the fence, says what else a block needs. Its words:
 *
 * - `<!-- run: server -->`: a `strongroom server` is running while the block runs, over the data directory
 *   /var/lib/strongroom with the audit file /var/log/strongroom/audit.log, holding one secret. The block gets
 *   STRONGROOM_ADDR and VAULT_ADDR (its URL), STRONGROOM_TOKEN and VAULT_TOKEN (its root token), and MAINPID (its
 *   process id, as systemd names it). After the block it must still answer its health check and stop cleanly on
 *   SIGTERM.
 * - `stored`: the same server has run and stopped before the block: its data is there and nothing holds it.
 * - `postgres`: a throwaway PostgreSQL cluster; every postgres:// URL in the block is replaced by its URL, and with
 *   `server` or `stored` the server keeps its state there and the block gets STRONGROOM_STORAGE_URL.
 * - `serves`: each command of the block starts a server; each is started alone, must print its banner and answer
 *   GET /v1/sys/health with 200, and must stop gracefully on SIGTERM.
 * - `tls`: before the block, /etc/strongroom/tls.crt and tls.key hold a certificate for localhost and 127.0.0.1.
 * - `npm-install` (not run: it would reach the registry): each command is `npm install strongroom` and optional
 *   peer dependencies that package.json declares, and `npm pack --dry-run` packs the command.
 * - `systemd` (not run: it would change the machine): each command is systemctl, journalctl, useradd or install, and
 *   names a unit that the page defines in an ```ini block whose first line is `# /etc/systemd/system/NAME.service`.
 *   That unit is checked by `systemd-analyze verify` (in a root holding the unit, the command at ExecStart's path and
 *   the other Exec programs), then run as systemd would: ExecStart with its Environment, the audit file moved, then
 *   ExecReload with MAINPID, after which the server must have reopened the audit file (a new file, mode 0600), still
 *   serve, and stop cleanly on SIGTERM.
 *
 * - `sequence` (run elsewhere): the blocks of a section that depend on each other are run in order, as one operator's
 *   session, by the test that SEQUENCES (tests/support/sh-blocks.ts) names for the section; that test checks that it
 *   runs every block of it. Here each is only checked to stand in such a section.
 *
 * A word outside this list fails the test, and so does a block that cannot run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../support/doc-blocks.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../support/postgres.js';
import {
  commandsOf,
  mapPaths,
  scratchFor,
  SEQUENCES,
  shBlocks,
  type Scratch,
  type ShBlock,
} from '../support/sh-blocks.js';
import { builtCli, request } from '../server/harness.js';
import { killSpawned, spawnServer, type SpawnedServer } from '../server/spawned.js';
import { checkUnit, unitsOf } from './systemd-unit.js';
import { certificateFor, serveEach } from './doc-servers.js';

const DOC = 'docs/production.md';
const OPTIONS = ['server', 'stored', 'postgres', 'serves', 'tls', 'npm-install', 'systemd', 'sequence'];
const TOKEN = 'sr.production-doc-root';
const blocks = shBlocks(DOC);
const cleanup: Array<() => Promise<void>> = [];
let cli: string;

beforeAll(async () => {
  cli = await builtCli();
}, 120_000);
afterEach(async () => {
  killSpawned();
  for (const step of cleanup.splice(0)) await step();
});

/** The environment every block gets. */
function baseEnv(scratch: Scratch): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: scratch.path,
    HOME: scratch.dir,
    PORT: '0',
    STRONGROOM_ROOT_TOKEN: '',
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
  };
}

/** The server of `server` and `stored`, with one secret written. */
async function background(scratch: Scratch, storageUrl: string | undefined): Promise<SpawnedServer> {
  const server = await spawnServer({
    STRONGROOM_DATA_DIR: `${scratch.fs}/var/lib/strongroom`,
    STRONGROOM_AUDIT_FILE: `${scratch.fs}/var/log/strongroom/audit.log`,
    STRONGROOM_ROOT_TOKEN: TOKEN,
    ...(storageUrl ? { STRONGROOM_STORAGE_URL: storageUrl } : {}),
  });
  const body = { data: { password: 'backed-up' } };
  const written = await request(server.url, { method: 'POST', path: '/v1/secret/data/app', token: TOKEN, body });
  expect(written.status).toBe(200);
  return server;
}

function runBash(code: string, scratch: Scratch, env: NodeJS.ProcessEnv): { status: number | null; output: string } {
  const run = spawnSync('bash', ['-e', '-c', code], { cwd: scratch.dir, env, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

function checkNpmInstall(block: ShBlock): void {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const peers = Object.keys(manifest.peerDependencies ?? {});
  const commands = commandsOf(block.code).map((command) => command.replace(/\s+#.*$/, ''));
  expect(commands.length).toBeGreaterThan(0);
  for (const command of commands) {
    const [npm, install, name, ...rest] = command.split(/\s+/);
    expect([npm, install, name], command).toEqual(['npm', 'install', manifest.name]);
    for (const peer of rest) expect(peers, `${command}: ${peer} is not a peer dependency`).toContain(peer);
  }
  const packed = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8' });
  expect(packed.status, packed.stderr).toBe(0);
  const files = (JSON.parse(packed.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files;
  expect(files.map((file) => file.path)).toContain(manifest.bin.strongroom.replace(/^\.\//, ''));
}

async function runBlock(block: ShBlock): Promise<void> {
  expect(block.options.filter((option) => !OPTIONS.includes(option))).toEqual([]);
  if (block.options.includes('npm-install')) return checkNpmInstall(block);
  if (block.options.includes('sequence')) {
    const runner = SEQUENCES[block.section];
    expect(runner, `${block.file}:${block.line}: no test runs the section "${block.section}"`).toBeDefined();
    return expect(existsSync(join(root, runner!))).toBe(true);
  }
  const scratch = scratchFor(cli);
  if (block.options.includes('systemd')) {
    const units = unitsOf(DOC);
    for (const command of commandsOf(block.code).map((line) => line.replace(/\s+#.*$/, '').replace(/^sudo /, ''))) {
      const [program, ...args] = command.split(/\s+/);
      expect(['systemctl', 'journalctl', 'useradd', 'install'], command).toContain(program);
      if (program === 'systemctl' && args[0] !== 'daemon-reload')
        expect(
          units.map((unit) => unit.name.replace(/\.service$/, '')),
          command,
        ).toContain(args.at(-1));
      if (program === 'journalctl') expect(units.map((unit) => unit.name.replace(/\.service$/, ''))).toContain(args[1]);
    }
    expect(units.length).toBeGreaterThan(0);
    for (const unit of units) await checkUnit(unit, scratch, cli, baseEnv(scratch));
    return;
  }
  let postgres: PostgresServer | undefined;
  if (block.options.includes('postgres')) {
    if (!postgresAvailable()) return;
    postgres = await startPostgres();
    cleanup.push(() => postgres!.stop());
  }
  let code = mapPaths(block.code, scratch.fs);
  if (postgres) code = code.replace(/postgres(ql)?:\/\/[^\s"']+/g, postgres.url);
  const env = baseEnv(scratch);
  if (block.options.includes('tls')) certificateFor(`${scratch.fs}/etc/strongroom`);
  if (block.options.includes('serves')) return serveEach(commandsOf(code), scratch, env);

  let server: SpawnedServer | undefined;
  if (block.options.includes('server') || block.options.includes('stored')) {
    server = await background(scratch, postgres?.url);
    Object.assign(env, {
      STRONGROOM_ADDR: server.url,
      VAULT_ADDR: server.url,
      STRONGROOM_TOKEN: TOKEN,
      VAULT_TOKEN: TOKEN,
      MAINPID: String(server.child.pid),
      ...(postgres ? { STRONGROOM_STORAGE_URL: postgres.url } : {}),
    });
    if (block.options.includes('stored')) {
      expect(await server.stop()).toBe(0);
      server = undefined;
    }
  }
  const result = runBash(code, scratch, env);
  expect(result.status, `${block.file}:${block.line}\n${result.output}`).toBe(0);
  if (server) {
    expect(server.child.exitCode, `${block.file}:${block.line} ended the server`).toBeNull();
    expect((await request(server.url, { path: '/v1/sys/health' })).status).toBe(200);
    expect(await server.stop()).toBe(0);
  }
}

describe(`every command in ${DOC}`, () => {
  it('has shell blocks', () => {
    expect(blocks.length).toBeGreaterThan(5);
  });

  it.each(blocks.map((block) => [`${block.file}:${block.line} [${block.options.join(' ')}]`, block] as const))(
    'runs %s',
    async (_, block) => runBlock(block),
    60_000,
  );
});
