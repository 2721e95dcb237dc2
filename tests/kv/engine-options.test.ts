import { describe, expect, it } from 'vitest';
import { AuthMethod, KvEngine, type KvEngineOptions } from '../../src/index.js';
import { testStorage } from '../support/test-storage.js';

describe('KvEngine options', () => {
  it('are refused at construction with a TypeError naming the option, as AuthMethod does', () => {
    const storage = testStorage();
    const refused: Array<[unknown, string]> = [
      [undefined, 'KvEngine needs a storage'],
      [{}, 'KvEngine needs a storage'],
      [{ storage: null }, 'KvEngine needs a storage'],
      [{ storage, maxValueBytes: -1 }, 'maxValueBytes must be a positive number of bytes'],
      [{ storage, maxValueBytes: 0 }, 'maxValueBytes must be a positive number of bytes'],
      [{ storage, maxValueBytes: Number.NaN }, 'maxValueBytes must be a positive number of bytes'],
      [{ storage, maxValueBytes: '1024' }, 'maxValueBytes must be a positive number of bytes'],
    ];
    for (const [options, message] of refused) {
      expect(() => new KvEngine(options as KvEngineOptions)).toThrow(new TypeError(message));
    }
    expect(() => new AuthMethod({ storage, storagePrefix: 'auth' })).toThrow(TypeError);
  });

  it('a storagePrefix is a folder path: no leading /, no ".", ".." or empty segments, for either engine', () => {
    const storage = testStorage();
    for (const storagePrefix of ['../', 'a/../', '/secret/', 'a//', './', 'secret']) {
      const message = `storagePrefix must be empty or a folder path ending in '/' (no leading '/', no '.', '..' or empty segments), got ${JSON.stringify(storagePrefix)}`;
      expect(() => new KvEngine({ storage, storagePrefix })).toThrow(new TypeError(message));
      expect(() => new AuthMethod({ storage, storagePrefix, env: {} })).toThrow(new TypeError(message));
    }
    for (const storagePrefix of ['', 'kv/', 'tenants/a.b/kv/']) {
      expect(() => new KvEngine({ storage, storagePrefix })).not.toThrow();
      expect(() => new AuthMethod({ storage, storagePrefix, env: {} })).not.toThrow();
    }
  });

  it('accept what the docs show', async () => {
    const kv = new KvEngine({ storage: testStorage(), storagePrefix: '', maxValueBytes: 64 });
    await kv.write('a', { x: 1 });
    await expect(kv.write('a', { x: 'y'.repeat(64) })).rejects.toThrow(/larger than the limit of 64 bytes/);
  });
});
