import { describe, expect, it } from 'vitest';
import { MemoryStorage, type Storage } from '../../../src/index.js';
import { runStorageConformance } from '../../../src/testing/index.js';
import { watchCases } from '../../../src/testing/storage-conformance/watch-cases.js';
import { conformanceTests } from './conformance.js';

describe('MemoryStorage conformance', () => {
  // A storage of one process has nothing to watch.
  conformanceTests(
    { create: async () => new MemoryStorage() },
    watchCases.map((testCase) => testCase.name),
  );
});

describe('the conformance suite itself', () => {
  it('reports failures of a broken adapter instead of throwing, and skips cases for missing optional members', async () => {
    // A storage that sorts names by JavaScript's default order and ignores the caller's copy rule.
    class Unsorted implements Storage {
      private readonly inner = new MemoryStorage();
      get = (key: string) => this.inner.get(key);
      put = (key: string, value: Uint8Array) => this.inner.put(key, value);
      delete = (key: string) => this.inner.delete(key);
      list = async (prefix: string) => (await this.inner.list(prefix)).sort();
    }
    const report = await runStorageConformance({ create: async () => new Unsorted() });
    expect(report.passed).toBe(false);
    expect(report.failures.map((failure) => failure.name)).toEqual([
      'list answers direct children sorted by UTF-8 byte order, sub-folders once with a trailing slash',
    ]);
    expect(report.failures[0]!.message).toMatch(/list\(order\/\): expected/);
    expect(report.outcomes.filter((outcome) => outcome.status === 'skipped').length).toBe(12);
    expect(report.outcomes.filter((outcome) => outcome.status === 'passed').length).toBe(5);
  });
});
