import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** STRONGROOM_TEST_ENCRYPTION=1: the suites' MemoryStorage becomes an EncryptedStorage over one. */
const encryptedMemory = fileURLToPath(new URL('./tests/support/encrypted-memory-storage.ts', import.meta.url));
const alias = process.env.STRONGROOM_TEST_ENCRYPTION === '1'
  ? [{ find: /^(\.\.\/)+src\/adapters\/storage\/memory\/memory-storage\.js$/, replacement: encryptedMemory }]
  : [];

export default defineConfig({
  resolve: {
    alias: [
      ...alias,
      // Docs examples import the package by its public name; tests run them against the sources.
      { find: /^strongroom$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^strongroom\/testing$/, replacement: fileURLToPath(new URL('./src/testing/index.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    benchmark: {
      include: ['bench/**/*.bench.ts'],
    },
  },
});
