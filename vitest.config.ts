import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { hvacAvailable, hvacSuiteAvailable } from './tests/support/hvac.js';
import { postgresAvailable } from './tests/support/postgres.js';

/**
 * The engine suites: the folders whose tests build their engines and servers over `testStorage()`
 * (tests/support/test-storage.ts), so they run again over every other kind of storage. The others test one storage
 * (adapters, encryption, durability), a parser (acl), the AWS provider (aws: four tests log in over a storage, to reach
 * the provider), the core's pieces (core: three tests over a storage) or the package itself; the whole suite already
 * runs them once, and each file of a suite costs about a second per kind before its first test (CI has 15 minutes).
 */
const ENGINE_SUITES = ['tests/kv', 'tests/auth', 'tests/server', 'tests/campaign'];

/** PostgreSQL missing outside CI: that kind is left out loudly (postgresAvailable warns; under CI it throws). */
const otherKinds = ['encrypted', 'sqlite', ...(postgresAvailable() ? ['postgres'] : [])];

/** Checked once here (with its one loud line when missing) and handed to every test file. */
const hvac = hvacAvailable() ? '1' : '0';
const hvacSuite = hvacSuiteAvailable() ? '1' : '0';

/**
 * Two files at a time, on two cores (vitest's default would be one: a worker fewer than the cores). Most files wait on
 * a database, a server, a spawned command or a timer, and the second worker fills the time the first leaves idle; the
 * whole suite one file at a time took 430 of CI's 860 seconds. The engine suites over the other kinds run as a group
 * of their own after it.
 */
const TWO_AT_ONCE = { maxWorkers: 2 };
const ENGINES_AFTER = { sequence: { groupOrder: 1 }, ...TWO_AT_ONCE };

/** One run of `folders` over storages of `kind`; the postgres kind starts its one cluster first. */
function project(name: string, folders: string[], kind: string) {
  return {
    extends: true as const,
    test: {
      name,
      include: folders.map((folder) => `${folder}/**/*.test.ts`),
      // The real command's starts pick their storage from their own environment, never from testStorage().
      ...(kind === 'memory' ? {} : { exclude: ['tests/server/command/**'] }),
      env: { STRONGROOM_TEST_STORAGE: kind, STRONGROOM_TEST_HVAC: hvac, STRONGROOM_TEST_HVAC_SUITE: hvacSuite },
      ...(kind === 'memory' ? TWO_AT_ONCE : ENGINES_AFTER),
      ...(kind === 'postgres' ? { globalSetup: ['tests/support/test-storage-cluster.ts'] } : {}),
    },
  };
}

export default defineConfig({
  resolve: {
    alias: [
      // Docs examples import the package by its public name; tests run them against the sources.
      { find: /^strongroom$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^strongroom\/testing$/, replacement: fileURLToPath(new URL('./src/testing/index.ts', import.meta.url)) },
    ],
  },
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    benchmark: {
      include: ['bench/**/*.bench.ts'],
    },
    projects: [
      project('memory', ['tests'], 'memory'),
      ...otherKinds.map((kind) => project(`engines:${kind}`, ENGINE_SUITES, kind)),
    ],
  },
});
