import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', sqlite: 'src/sqlite.ts', postgres: 'src/postgres.ts', testing: 'src/testing/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  splitting: false,
});
