// The throwaway PostgreSQL of the tests (tests/support/postgres.ts), compiled on the fly for the sections that need a
// real server: one harness for tests and bench, so both start, configure and remove a cluster the same way.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** The harness's `postgresAvailable` and `startPostgres`, built into `directory` (which the caller removes). */
export async function postgresHarness(directory) {
  const outfile = join(directory, 'postgres-harness.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('../../tests/support/postgres.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'silent',
  });
  return import(pathToFileURL(outfile).href);
}
