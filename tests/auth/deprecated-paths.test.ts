import { describe, expect, it } from 'vitest';
import { AuthContext } from '../../src/auth/context/auth-context.js';
import { updateAccessListEntry } from '../../src/auth/lists/accesslist.js';
import { authRoutes } from '../../src/auth/paths/index.js';
import { FakeCloud } from '../support/fake-cloud.js';
import { testStorage } from '../support/test-storage.js';
import { adminHarness, dataOf } from './admin-harness.js';

function patternsOf(routes: ReturnType<typeof authRoutes>): string[] {
  return routes.map((route) => (typeof route.pattern === 'string' ? route.pattern : route.pattern.source));
}

describe('deprecated path aliases', () => {
  it('are generated for every access-list and deny-list row, and only for those', () => {
    const context = new AuthContext({ storage: testStorage(), cloud: new FakeCloud() });
    const patterns = patternsOf(authRoutes(context));
    const current = patterns.filter((pattern) => /accesslist|denylist/.test(pattern));
    const deprecated = patterns.filter((pattern) => /whitelist|blacklist/.test(pattern));
    expect(current).toHaveLength(8);
    expect(deprecated).toEqual(
      current.map((pattern) => pattern.replace('accesslist', 'whitelist').replace('denylist', 'blacklist')),
    );
  });

  it('identity-whitelist reads, lists and deletes what identity-accesslist holds', async () => {
    const storage = testStorage();
    const h = adminHarness({ storage });
    await updateAccessListEntry(new AuthContext({ storage, cloud: new FakeCloud() }), 'i-1', () => ({
      role: 'web',
      client_nonce: 'n',
      creation_time: '2026-01-01T00:00:00Z',
      disallow_reauthentication: false,
      pending_time: '2026-01-01T00:00:00Z',
      expiration_time: '2026-01-02T00:00:00Z',
      last_updated_time: '2026-01-01T00:00:00Z',
    }));
    expect(await h.read('identity-whitelist/i-1')).toEqual(await h.read('identity-accesslist/i-1'));
    expect(await h.list('identity-whitelist')).toEqual(await h.list('identity-accesslist'));
    expect((await h.remove('identity-whitelist/i-1')).status).toBe(204);
    expect((await h.read('identity-accesslist/i-1')).status).toBe(404);
  });

  it('roletag-blacklist denies, reads, lists and deletes like roletag-denylist', async () => {
    const h = adminHarness();
    await h.write('role/web', { auth_type: 'ec2', bound_ami_id: 'ami-1', role_tag: 'VaultRole' });
    const tag = dataOf(await h.write('role/web/tag', {})).tag_value as string;
    expect((await h.write(`roletag-blacklist/${tag}`)).status).toBe(204);
    expect(await h.read(`roletag-denylist/${tag}`)).toEqual(await h.read(`roletag-blacklist/${tag}`));
    expect(await h.list('roletag-blacklist')).toEqual(await h.list('roletag-denylist'));
    expect((await h.remove(`roletag-blacklist/${tag}`)).status).toBe(204);
    expect((await h.read(`roletag-denylist/${tag}`)).status).toBe(404);
  });
});
