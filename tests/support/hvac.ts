// Debian's python3-hvac, a real Vault client some server tests drive, and what hvac's own integration tests need.
// vitest.config.ts checks for both once per run and tells every test (STRONGROOM_TEST_HVAC, STRONGROOM_TEST_HVAC_SUITE),
// so a missing part is one loud line, not one per file.
import { spawnSync } from 'node:child_process';
import { warnOnce } from './postgres.js';

/** Whether Python can import `modules`; warns loudly when not, and under CI (env CI set) throws: CI never skips. */
function importable(modules: string, packages: string, tests: string, mark: string): boolean {
  if (spawnSync('/usr/bin/python3', ['-c', `import ${modules}`], { stdio: 'ignore' }).status === 0) return true;
  const message = `${packages} not found: install it with Debian's packages (sudo apt-get install -y ${packages})`;
  if (process.env.CI) throw new Error(`${message}. CI never skips ${tests}.`);
  warnOnce(mark, `SKIPPING ${tests}: ${message}.`);
  return false;
}

/** Whether Debian's hvac can be imported (see `importable`). */
export const hvacAvailable = () => importable('hvac', 'python3-hvac', 'the hvac tests', 'STRONGROOM_TEST_WARNED_HVAC');

/**
 * Whether hvac's own integration tests can run: pytest and what they import beside the vendored hvac (see
 * `importable`). The packages are those scripts/test-parts.mjs installs.
 */
export const hvacSuiteAvailable = () =>
  importable(
    'pytest, parameterized, requests, packaging',
    'python3-pytest python3-parameterized python3-requests python3-packaging',
    "hvac's own integration tests",
    'STRONGROOM_TEST_WARNED_HVAC_SUITE',
  );

/** In a test: whether the run found hvac (set by vitest.config.ts). */
export const hvacHere = process.env.STRONGROOM_TEST_HVAC !== '0';

/** In a test: whether the run can run hvac's own integration tests (set by vitest.config.ts). */
export const hvacSuiteHere = process.env.STRONGROOM_TEST_HVAC_SUITE !== '0';
