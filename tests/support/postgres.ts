// A throwaway PostgreSQL for tests: a fresh cluster in a temp directory on a free loopback port, fsync off (its data
// only has to survive a client crash, never a power loss), stopped and removed afterwards. Several test sessions run
// their own at once, so nothing here assumes a fixed port or path.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

function findBinaries(): string | undefined {
  const candidates = [process.env.POSTGRES_BIN, '/usr/lib/postgresql/15/bin'];
  if (existsSync('/usr/lib/postgresql')) {
    for (const version of readdirSync('/usr/lib/postgresql').sort().reverse())
      candidates.push(`/usr/lib/postgresql/${version}/bin`);
  }
  return candidates.find(
    (dir): dir is string => dir !== undefined && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')),
  );
}

const binaries = findBinaries();

/**
 * One loud line per run: vitest evaluates its config in several processes, which inherit the environment, so the
 * first to warn marks it there.
 */
export function warnOnce(mark: string, line: string): void {
  if (process.env[mark]) return;
  process.env[mark] = '1';
  console.warn(`\n!!! ${line}\n`);
}

/**
 * Whether PostgreSQL tests can run here. Without the binaries they are skipped with a loud message, except under CI
 * (env CI set), where a missing PostgreSQL is a failure: CI installs it, so its absence means a broken setup.
 */
export function postgresAvailable(): boolean {
  if (binaries) return true;
  const message =
    "PostgreSQL binaries (initdb, pg_ctl) not found: install Debian's `postgresql` package (sudo apt-get install -y postgresql) or set POSTGRES_BIN";
  if (process.env.CI) throw new Error(`${message}. CI never skips the PostgreSQL tests.`);
  warnOnce('STRONGROOM_TEST_WARNED_POSTGRES', `SKIPPING PostgreSQL tests: ${message}.`);
  return false;
}

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /**
   * Stops the server, keeping its data (to test an outage); `start` brings it back on the same port. `immediate` (the
   * default) drops every connection as a crash does; `fast`, `pg_ctl stop`'s own default, tells the sessions first.
   */
  halt(mode?: 'immediate' | 'fast'): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its data. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Root cannot run PostgreSQL: as root, the cluster belongs to the `postgres` user. */
const asRoot = process.getuid?.() === 0;
const runAsOwner = (command: string, args: string[]) =>
  asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);

/**
 * `durable`: flush to disk at every commit, as a production server does (the benchmarks); by default the tests skip
 * the flush for speed, which loses nothing unless the machine itself crashes. `maxConnections` (default 200): the
 * engine suites over PostgreSQL need more, since a test may open hundreds of storages (a pool each) before it ends.
 */
export async function startPostgres(
  options: { durable?: boolean; maxConnections?: number } = {},
): Promise<PostgresServer> {
  if (!binaries) throw new Error('PostgreSQL binaries not found (check postgresAvailable() first)');
  const root = mkdtempSync(join(tmpdir(), 'strongroom-pg-'));
  const data = join(root, 'data');
  if (asRoot) chownSync(root, ...ownerIds());
  await runAsOwner('cp', ['-a', await template(), data]);
  let port = 0;
  const pgCtl = (args: string[]) => runAsOwner(join(binaries, 'pg_ctl'), ['-D', data, ...args]);
  const start = async () => {
    const flush = options.durable ? '' : '-c fsync=off -c full_page_writes=off';
    const settings = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 ${flush} -c max_connections=${options.maxConnections ?? 200}`;
    await pgCtl(['-l', join(root, 'log'), '-w', '-t', '30', '-o', settings, 'start']);
  };
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      await start();
      break;
    } catch (error) {
      // Another session may have taken the port between our probe and the server's bind.
      if (attempt >= 4) {
        rmSync(root, { recursive: true, force: true });
        throw error;
      }
    }
  }
  const halt = async (mode: 'immediate' | 'fast' = 'immediate') => {
    await pgCtl(['-m', mode, '-w', 'stop']);
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    halt,
    start,
    async stop() {
      await halt().catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * initdb takes seconds on a busy machine, so one initialized cluster per machine and PostgreSQL version serves as a
 * template that each server copies. Concurrent creators race with an atomic rename; the loser discards its copy.
 */
async function template(): Promise<string> {
  const path = join(tmpdir(), `strongroom-pg-template-${binaries!.replace(/[^A-Za-z0-9]+/g, '-')}`);
  if (existsSync(join(path, 'PG_VERSION'))) return path;
  const building = mkdtempSync(join(tmpdir(), 'strongroom-pg-initdb-'));
  if (asRoot) chownSync(building, ...ownerIds());
  const data = join(building, 'data');
  await runAsOwner(join(binaries!, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-N',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  try {
    renameSync(data, path);
  } catch {
    // Another process installed the template first.
  }
  rmSync(building, { recursive: true, force: true });
  return path;
}

function ownerIds(): [number, number] {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry: string) => entry.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user to own the cluster (running as root)');
  const [, , uid, gid] = line.split(':');
  return [Number(uid), Number(gid)];
}
