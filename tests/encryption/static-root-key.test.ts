import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EncryptedStorage, MemoryStorage, StaticRootKey, loadOrCreateRootKeyFile } from '../../src/index.js';

const directory = mkdtempSync(join(tmpdir(), 'strongroom-root-key-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('StaticRootKey', () => {
  it('refuses a missing key with the rule it breaks, as fromBase64(process.env.ROOT_KEY!) meets an unset variable', () => {
    for (const missing of [undefined, null, 32]) {
      expect(() => StaticRootKey.fromBase64(missing as unknown as string)).toThrow(
        new TypeError(
          'the root key must be 32 bytes in standard base64 (44 characters); got no text (is the variable holding it set?)',
        ),
      );
    }
  });

  it('loadOrCreateRootKeyFile creates the missing folders of its path, owner only, then reads the same key back', async () => {
    const folder = join(directory, 'keys', 'strongroom');
    const path = join(folder, 'root.key');
    const first = await loadOrCreateRootKeyFile(path);
    expect(first.created).toBe(true);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const storage = new MemoryStorage();
    const sealed = new EncryptedStorage({ storage, key: first.key });
    await sealed.put('a', new Uint8Array([1, 2, 3]));
    const second = await loadOrCreateRootKeyFile(path);
    expect(second.created).toBe(false);
    expect(await new EncryptedStorage({ storage, key: second.key }).get('a')).toEqual(new Uint8Array([1, 2, 3]));
  });
});
