// Runs hvac 2.4.0's own integration tests (vendor/hvac-2.4.0, unmodified but for the part that starts a server)
// against `strongroom server` as `npm start` runs it: the built command, SQLite with encryption, TLS. Each test class
// starts its own server on a fresh data directory. Arguments go to pytest (e.g. `-k test_kv_v2`); with none, every
// vendored test file runs. Writes a JUnit report to reports/hvac-suite.xml and exits with pytest's status.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const suite = join(root, 'vendor', 'hvac-2.4.0');
// Where the JUnit report goes: STRONGROOM_HVAC_REPORT, or reports/hvac-suite.xml.
const report = process.env.STRONGROOM_HVAC_REPORT ?? join(root, 'reports', 'hvac-suite.xml');

// The Vault release whose API strongroom follows: hvac's tests choose version-dependent expectations by it.
const VAULT_API_VERSION = '1.21.0';

const built = spawnSync(process.execPath, [join(root, 'scripts', 'ensure-ready.mjs')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
mkdirSync(dirname(report), { recursive: true });

const args = process.argv.slice(2);
const result = spawnSync(
  '/usr/bin/python3',
  ['-m', 'pytest', '-p', 'no:cacheprovider', `--junitxml=${report}`, ...(args.length > 0 ? args : ['tests'])],
  {
    cwd: suite,
    stdio: 'inherit',
    env: {
      ...process.env,
      // The vendored hvac comes first: Debian's python3-hvac (an older release) may be installed system-wide.
      PYTHONPATH: suite,
      STRONGROOM_HVAC_COMMAND: `${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'dist', 'cli.js'))} server`,
      STRONGROOM_HVAC_VAULT_VERSION: VAULT_API_VERSION,
    },
  },
);
process.exit(result.status ?? 1);
