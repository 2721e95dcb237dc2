import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: { index: 'src/index.ts', sqlite: 'src/sqlite.ts', postgres: 'src/postgres.ts', server: 'src/server/index.ts', testing: 'src/testing/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'node',
    splitting: false,
  },
  {
    // The `strongroom` command: ESM only (it awaits at top level), run by node directly.
    entry: { cli: 'src/server/cli.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    platform: 'node',
    splitting: false,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
