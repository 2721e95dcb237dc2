// Debian's python3-hvac, a real Vault client some server tests drive. vitest.config.ts checks for it once per run and
// tells every test through STRONGROOM_TEST_HVAC, so a missing hvac is one loud line, not one per file.
import { spawnSync } from 'node:child_process';
import { warnOnce } from './postgres.js';

/** Whether hvac can be imported; warns loudly when not, and under CI (env CI set) throws: CI never skips. */
export function hvacAvailable(): boolean {
  if (spawnSync('/usr/bin/python3', ['-c', 'import hvac'], { stdio: 'ignore' }).status === 0) return true;
  const message =
    "python3-hvac not found: install Debian's `python3-hvac` package (sudo apt-get install -y python3-hvac)";
  if (process.env.CI) throw new Error(`${message}. CI never skips the hvac tests.`);
  warnOnce('STRONGROOM_TEST_WARNED_HVAC', `SKIPPING the hvac tests: ${message}.`);
  return false;
}

/** In a test: whether the run found hvac (set by vitest.config.ts). */
export const hvacHere = process.env.STRONGROOM_TEST_HVAC !== '0';
