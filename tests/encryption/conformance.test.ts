import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { EncryptedStorage, MemoryStorage } from '../../src/index.js';
import { watchCases } from '../../src/testing/storage-conformance/watch-cases.js';
import { conformanceTests } from '../adapters/storage/conformance.js';

// The barrier is a Storage like any other: the adapters' conformance suite holds through it, with a second process's
// handle (another EncryptedStorage, same root key) over the same data for the concurrency cases.
describe('EncryptedStorage over MemoryStorage conformance', () => {
  const rootKey = randomBytes(32);
  const inners = new WeakMap<object, MemoryStorage>();
  conformanceTests(
    {
      create: async () => {
        const inner = new MemoryStorage();
        const storage = new EncryptedStorage({ storage: inner, key: rootKey });
        inners.set(storage, inner);
        return storage;
      },
      sibling: async (storage) => new EncryptedStorage({ storage: inners.get(storage)!, key: rootKey }),
    },
    // EncryptedStorage watches when what it wraps does: MemoryStorage does not.
    watchCases.map((testCase) => testCase.name),
  );
});
