import { describe, expect, it } from 'vitest';
import {
  deleteAccessListEntry,
  readAccessListEntry,
  updateAccessListEntry,
  type AccessListEntry,
} from '../../../src/auth/lists/accesslist.js';
import { AuthContext } from '../../../src/auth/context/auth-context.js';
import { unchanged } from '../../../src/core/store/stored-json.js';
import { withoutCompareAndPut } from '../../support/faulty-storage.js';
import { FakeCloud } from '../../support/fake-cloud.js';
import { testStorage } from '../../support/test-storage.js';
import { adminHarness, dataOf, errorOf } from '../admin-harness.js';

function entry(overrides: Partial<AccessListEntry> = {}): AccessListEntry {
  return {
    role: 'Web',
    client_nonce: '5defbf9e-a8f9-3063-bdfc-54b7a42a1f95',
    creation_time: '2026-01-01T00:00:00Z',
    disallow_reauthentication: false,
    pending_time: '2016-04-05T16:26:55Z',
    expiration_time: '2026-02-02T00:00:00Z',
    last_updated_time: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

describe('identity-accesslist', () => {
  it('reads, lists and deletes the entries login writes', async () => {
    const storage = testStorage();
    const h = adminHarness({ storage });
    const context = new AuthContext({ storage, cloud: new FakeCloud() });
    expect((await h.list('identity-accesslist')).status).toBe(404);
    await updateAccessListEntry(context, 'i-de0f1344', () => entry());
    await updateAccessListEntry(context, 'i-0abc', () => entry({ role: 'other' }));
    expect(dataOf(await h.read('identity-accesslist/i-de0f1344'))).toEqual(entry());
    expect(dataOf(await h.list('identity-accesslist/'))).toEqual({ keys: ['i-0abc', 'i-de0f1344'] });
    expect((await h.remove('identity-accesslist/i-de0f1344')).status).toBe(204);
    expect((await h.read('identity-accesslist/i-de0f1344')).status).toBe(404);
    expect(await readAccessListEntry(context, 'i-de0f1344')).toBeUndefined();
    expect((await h.remove('identity-accesslist/i-de0f1344')).status).toBe(204);
    expect((await h.write('identity-accesslist/i-0abc', {})).status).toBe(405);
  });

  it('refuses instance ids that cannot be one path segment', async () => {
    const context = new AuthContext({ storage: testStorage(), cloud: new FakeCloud() });
    await expect(updateAccessListEntry(context, '../../role/web', () => entry())).rejects.toThrow(
      'invalid instance ID',
    );
    await expect(deleteAccessListEntry(context, 'a/b')).rejects.toThrow('invalid instance ID');
  });

  it('lets a change refuse a login and leave the entry as it was', async () => {
    const context = new AuthContext({ storage: testStorage(), cloud: new FakeCloud() });
    await updateAccessListEntry(context, 'i-1', () => entry());
    await expect(
      updateAccessListEntry(context, 'i-1', () => {
        throw new Error('client nonce mismatch');
      }),
    ).rejects.toThrow('client nonce mismatch');
    const result = await updateAccessListEntry(context, 'i-1', () => unchanged);
    expect(result).toEqual({ previous: entry(), next: entry(), written: false });
  });

  for (const [name, shared] of [
    ['compareAndPut across two engines', true],
    ['one engine without compareAndPut', false],
  ] as const) {
    it(`never lets two concurrent first logins both see "no entry" (${name})`, async () => {
      const storage = shared ? testStorage() : withoutCompareAndPut(testStorage());
      const engines = shared
        ? [new AuthContext({ storage, cloud: new FakeCloud() }), new AuthContext({ storage, cloud: new FakeCloud() })]
        : [new AuthContext({ storage, cloud: new FakeCloud() })];
      let firstLogins = 0;
      const logins = Array.from({ length: 8 }, (_, i) =>
        updateAccessListEntry(engines[i % engines.length]!, 'i-1', async (current) => {
          await new Promise((resolve) => setImmediate(resolve));
          if (current) return { ...current, last_updated_time: `login ${i}` };
          return entry({ client_nonce: `nonce-${i}` });
        }).then((result) => {
          if (result.previous === undefined) firstLogins += 1;
        }),
      );
      await Promise.all(logins);
      expect(firstLogins).toBe(1);
    });
  }

  it('answers 404 for an instance id that breaks the name rule', async () => {
    const h = adminHarness();
    expect((await h.read('identity-accesslist/-x-')).status).toBe(404);
    expect(errorOf(await h.read('identity-accesslist/..'))).toContain("'.' and '..' segments are not allowed");
  });
});
