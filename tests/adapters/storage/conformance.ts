import { expect, it } from 'vitest';
import type { Storage } from '../../../src/index.js';
import {
  runConformanceCase,
  storageConformanceCases,
  type StorageConformanceOptions,
} from '../../../src/testing/index.js';

/** One vitest test per conformance case, so a failure names its case. */
export function conformanceTests<S extends Storage>(
  options: StorageConformanceOptions<S>,
  expectSkipped: readonly string[] = [],
): void {
  for (const testCase of storageConformanceCases) {
    it(testCase.name, { timeout: 60_000 }, async () => {
      const outcome = await runConformanceCase(testCase, options);
      const skipped = expectSkipped.includes(testCase.name);
      if (!skipped) expect(outcome.message ?? '').toBe('');
      expect(outcome.status).toBe(skipped ? 'skipped' : 'passed');
    });
  }
}
