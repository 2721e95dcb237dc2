import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Docs examples import the package by its public name; tests run them against the sources.
    alias: [
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
