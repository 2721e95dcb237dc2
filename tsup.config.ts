import { defineConfig } from 'tsup';

// Every entry of a format is built in one pass with code splitting, so the entries share one module graph: a class
// (KvEngine, NotFound, ...) exists once per format, and `instanceof` holds across `strongroom`, `strongroom/server`
// and the others. Declarations are shared the same way.
const entry = {
  index: 'src/index.ts',
  aws: 'src/aws.ts',
  sqlite: 'src/sqlite.ts',
  postgres: 'src/postgres.ts',
  server: 'src/server/index.ts',
  testing: 'src/testing/index.ts',
};
const common = { sourcemap: true, target: 'node20', platform: 'node', splitting: true } as const;

export default defineConfig([
  // ESM, with the `strongroom` command in the same graph (ESM only: it awaits at top level, and node runs it directly;
  // esbuild keeps the hashbang of its source). The two passes run at once, so `npm run build` empties dist/ first.
  { ...common, entry: { ...entry, cli: 'src/cli/main.ts' }, format: ['esm'], dts: { entry } },
  { ...common, entry, format: ['cjs'], dts: true },
]);
