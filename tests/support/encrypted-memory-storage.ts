/**
 * Stands in for MemoryStorage when the suites run with STRONGROOM_TEST_ENCRYPTION=1 (see vitest.config.ts): every
 * storage a test builds is then a real EncryptedStorage, with a fresh random root key, over a real MemoryStorage.
 * Imported through the root entry, which the alias does not redirect.
 */
import { randomBytes } from 'node:crypto';
import { EncryptedStorage, MemoryStorage as PlainMemoryStorage } from '../../src/index.js';

export class MemoryStorage extends EncryptedStorage {
  constructor() {
    super({ storage: new PlainMemoryStorage(), key: randomBytes(32) });
  }
}
