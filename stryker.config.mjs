// StrykerJS over one group of mutation/groups.mjs (MUTATION_GROUP); `npm run mutation` runs every group in turn.
import { GROUPS } from './mutation/groups.mjs';

const name = process.env.MUTATION_GROUP;
const group = GROUPS[name];
if (!group) throw new Error(`MUTATION_GROUP must name one of: ${Object.keys(GROUPS).join(', ')}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'mutation/vitest.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: group.mutate,
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  tempDirName: `.stryker-tmp/${name}`,
  cleanTempDir: 'always',
  // fast-check properties are seeded in the tests, so a verdict repeats from run to run.
  disableTypeChecks: 'src/**/*.ts',
};
