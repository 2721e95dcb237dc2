import type { Storage } from '../../ports/storage.js';
import { basicCases, pagingCases } from './basic-cases.js';
import { concurrencyCases } from './concurrency-cases.js';
import { conditionalCases } from './conditional-cases.js';
import type { ConformanceCase } from './checks.js';
import { watchCases } from './watch-cases.js';

export type { ConformanceCase } from './checks.js';

/**
 * What the suite needs from an adapter under test. `create` answers an empty storage (a fresh file, table or
 * namespace); `cleanup` releases it (close connections, remove files). `sibling`, when given, opens a second handle
 * onto the same data (another connection or client), so concurrency cases run across handles as well. `S` is the
 * adapter's own type, so the callbacks can use its members (a namespace, `close()`) without casts.
 */
export interface StorageConformanceOptions<S extends Storage = Storage> {
  /** A new, empty storage for one case. */
  create: () => Promise<S>;
  /** Releases a storage after its case, each sibling too, whatever the outcome. */
  cleanup?: (storage: S) => Promise<void>;
  /** A second handle onto the data of `storage`, for the concurrency cases. */
  sibling?: (storage: S) => Promise<S>;
}

/** How one case went. */
export interface ConformanceOutcome {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Why it failed, or which optional member was missing. */
  message?: string;
}

/** What `runStorageConformance` answers. */
export interface ConformanceReport {
  /** Every case's outcome, in the order run. */
  outcomes: ConformanceOutcome[];
  /** The failed outcomes only. */
  failures: ConformanceOutcome[];
  /** Whether no case failed (skipped ones do not count). */
  passed: boolean;
}

/** Every case of the suite, in the order `runStorageConformance` runs them. */
export const storageConformanceCases: readonly ConformanceCase[] = [
  ...basicCases,
  ...pagingCases,
  ...conditionalCases,
  ...concurrencyCases,
  ...watchCases,
];

/**
 * Runs one case on a storage from `options.create` and releases it afterwards, whatever happened. Skips (does not fail)
 * a case that needs an optional member the storage does not have. Test runners call this once per case.
 */
export async function runConformanceCase<S extends Storage>(
  testCase: ConformanceCase,
  options: StorageConformanceOptions<S>,
): Promise<ConformanceOutcome> {
  const storage = await options.create();
  const handles: S[] = [];
  try {
    const missing = (testCase.requires ?? []).filter((member) => typeof storage[member] !== 'function');
    if (missing.length > 0)
      return { name: testCase.name, status: 'skipped', message: `the storage has no ${missing.join(', ')}` };
    const sibling = options.sibling ? await options.sibling(storage) : undefined;
    if (sibling) handles.push(sibling);
    await testCase.run(storage, sibling);
    return { name: testCase.name, status: 'passed' };
  } catch (error) {
    return { name: testCase.name, status: 'failed', message: error instanceof Error ? error.message : String(error) };
  } finally {
    for (const handle of handles) await options.cleanup?.(handle);
    await options.cleanup?.(storage);
  }
}

/** Runs the whole suite, one fresh storage per case, and reports every outcome; it never throws for a failed case. */
export async function runStorageConformance<S extends Storage>(
  options: StorageConformanceOptions<S>,
): Promise<ConformanceReport> {
  const outcomes: ConformanceOutcome[] = [];
  for (const testCase of storageConformanceCases) outcomes.push(await runConformanceCase(testCase, options));
  const failures = outcomes.filter((outcome) => outcome.status === 'failed');
  return { outcomes, failures, passed: failures.length === 0 };
}
