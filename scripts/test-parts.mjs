// Before `npm test`: the real parts some tests drive, PostgreSQL (a throwaway cluster per run) and Debian's
// python3-hvac (a real Vault client), and pytest with the packages hvac's own integration tests import (the hvac
// suite, scripts/hvac-suite.mjs). As root with apt-get at hand, a missing part is installed, its progress shown;
// otherwise the run goes on and the tests that need it are skipped, each missing part named in one loud line with the
// command that installs it (printed by the test run, see below). Under CI (env CI set) a part still missing fails the run: CI never skips.
// STRONGROOM_TEST_NO_INSTALL=1 turns the installing off.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The same places tests/support/postgres.ts looks in. */
function postgresPresent() {
  const dirs = [process.env.POSTGRES_BIN];
  if (existsSync('/usr/lib/postgresql'))
    dirs.push(...readdirSync('/usr/lib/postgresql').map((version) => `/usr/lib/postgresql/${version}/bin`));
  return dirs.some((dir) => dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

const imports = (modules) => () =>
  spawnSync('/usr/bin/python3', ['-c', `import ${modules}`], { stdio: 'ignore' }).status === 0;

const parts = [
  { packages: ['postgresql'], present: postgresPresent, needs: 'the PostgreSQL tests (engines:postgres and more)' },
  { packages: ['python3-hvac'], present: imports('hvac'), needs: 'the tests that drive the server with hvac' },
  {
    packages: ['python3-pytest', 'python3-parameterized', 'python3-requests', 'python3-packaging'],
    present: imports('pytest, parameterized, requests, packaging'),
    needs: "hvac's own integration tests (tests/oracles/hvac-suite.test.ts)",
  },
];

const say = (line) => process.stderr.write(`[strongroom] ${line}\n`);
let missing = parts.filter((part) => !part.present());

const canInstall =
  missing.length > 0 &&
  process.env.STRONGROOM_TEST_NO_INSTALL !== '1' &&
  process.getuid?.() === 0 &&
  spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
if (canInstall) {
  const names = missing.flatMap((part) => part.packages);
  say(
    `installing ${names.join(' and ')} with apt-get for the tests that drive them (STRONGROOM_TEST_NO_INSTALL=1 skips this)`,
  );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => spawnSync('apt-get', args, { stdio: 'inherit', env }).status === 0;
  if (!apt(['update']) || !apt(['install', '-y', '--no-install-recommends', ...names])) say('apt-get failed (above)');
  missing = missing.filter((part) => !part.present());
}

// Outside CI the test run itself names each missing part in its one loud line (vitest.config.ts), also when vitest is
// started without npm; under CI a missing part fails here, before anything runs.
if (missing.length > 0 && process.env.CI) {
  for (const part of missing)
    say(
      `${part.packages.join(' ')} ${part.packages.length > 1 ? 'are' : 'is'} missing, and ${part.needs} need it. CI never skips: failing`,
    );
  process.exitCode = 1;
}
