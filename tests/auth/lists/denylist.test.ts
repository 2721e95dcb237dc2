import { describe, expect, it } from 'vitest';
import { AuthContext } from '../../../src/auth/context/auth-context.js';
import { isRoleTagDenied } from '../../../src/auth/lists/denylist.js';
import { parseRoleTag } from '../../../src/auth/roles/role-tag.js';
import { FakeCloud } from '../../support/fake-cloud.js';
import { testStorage } from '../../support/test-storage.js';
import { adminHarness, dataOf, errorOf, type AdminHarness } from '../admin-harness.js';

const TAG_ROLE = { auth_type: 'ec2', bound_ami_id: 'ami-1', role_tag: 'VaultRole', token_policies: 'p,q' };

async function tagged(options: Parameters<typeof adminHarness>[0] = {}) {
  const h = adminHarness(options);
  await h.write('role/web', TAG_ROLE);
  const tag = async (body: Record<string, unknown> = {}) =>
    dataOf(await h.write('role/web/tag', body)).tag_value as string;
  return { h, tag };
}

function base64(text: string, encoding: 'base64' | 'base64url' = 'base64'): string {
  return Buffer.from(text).toString(encoding);
}

async function denied(h: AdminHarness, value: string): Promise<boolean> {
  return isRoleTagDenied(new AuthContext({ storage: h.storage, cloud: new FakeCloud() }), parseRoleTag(value));
}

describe('roletag-denylist', () => {
  it('denies a raw tag, reads its times, lists it and deletes it', async () => {
    const { h, tag } = await tagged({ mountMaxTtl: 3600 });
    const value = await tag({ max_ttl: 7200 });
    expect((await h.write(`roletag-denylist/${value}`)).status).toBe(204);
    expect(dataOf(await h.read(`roletag-denylist/${value}`))).toEqual({
      creation_time: '2026-01-01T00:00:00Z',
      expiration_time: '2026-01-01T02:00:00Z',
    });
    expect(dataOf(await h.list('roletag-denylist'))).toEqual({ keys: [value] });
    expect(await denied(h, value)).toBe(true);
    expect((await h.remove(`roletag-denylist/${value}`)).status).toBe(204);
    expect((await h.read(`roletag-denylist/${value}`)).status).toBe(404);
    expect((await h.list('roletag-denylist/')).status).toBe(404);
    expect(await denied(h, value)).toBe(false);
  });

  it('accepts the tag base64-encoded (standard or URL-safe) on every operation', async () => {
    const { h, tag } = await tagged();
    const value = await tag();
    expect((await h.write(`roletag-denylist/${base64(value)}`)).status).toBe(204);
    expect((await h.read(`roletag-denylist/${base64(value, 'base64url')}`)).status).toBe(200);
    expect((await h.read(`roletag-denylist/${value}`)).status).toBe(200);
    expect((await h.remove(`roletag-denylist/${base64(value)}`)).status).toBe(204);
    expect((await h.read(`roletag-denylist/${value}`)).status).toBe(404);
  });

  it('expires at the longest of the tag max TTL, the role token_max_ttl and the mount maximum; a re-deny keeps creation_time', async () => {
    const { h, tag } = await tagged({ mountMaxTtl: 600 });
    await h.write('role/web', { token_max_ttl: 1800 });
    const value = await tag({ max_ttl: 60 });
    await h.write(`roletag-denylist/${value}`);
    expect(dataOf(await h.read(`roletag-denylist/${value}`)).expiration_time).toBe('2026-01-01T00:30:00Z');
    h.clock.advance(3600);
    await h.write(`roletag-denylist/${value}`);
    expect(dataOf(await h.read(`roletag-denylist/${value}`))).toEqual({
      creation_time: '2026-01-01T00:00:00Z',
      expiration_time: '2026-01-01T01:30:00Z',
    });
  });

  it('finds a denied tag whatever the order and spelling of its items', async () => {
    const { h, tag } = await tagged();
    const value = await tag({ policies: 'p' });
    await h.write(`roletag-denylist/${value}`);
    const [version, nonce, role, d, m, p, hmac] = value.split(':');
    const respelled = [version, nonce, p, m!.replace('false', 'F'), role, d, hmac].join(':');
    expect(await denied(h, respelled)).toBe(true);
    expect((await h.read(`roletag-denylist/${respelled}`)).status).toBe(200);
  });

  it('refuses tags that do not verify, and tags of missing roles, with 400', async () => {
    const { h, tag } = await tagged();
    const value = await tag();
    const forged = value.replace(':d=false:', ':d=true:');
    expect(errorOf(await h.write(`roletag-denylist/${forged}`))).toBe('role tag signature verification failed');
    expect(errorOf(await h.write('roletag-denylist/not-a-tag'))).toBe('invalid tag');
    expect(errorOf(await h.write(`roletag-denylist/${value.replace('r=web', 'r=gone')}`))).toBe(
      'entry not found for "gone"',
    );
    expect((await h.read('roletag-denylist/not-a-tag')).status).toBe(404);
    expect((await h.remove('roletag-denylist/not-a-tag')).status).toBe(204);
    expect((await h.list('roletag-denylist')).status).toBe(404);
  });

  it('deny-lists the same tag from two engines over one storage into one entry', async () => {
    const storage = testStorage();
    const { h: a, tag } = await tagged({ storage });
    const b = adminHarness({ storage });
    const value = await tag();
    const results = await Promise.all([a.write(`roletag-denylist/${value}`), b.write(`roletag-denylist/${value}`)]);
    expect(results.map((response) => response.status)).toEqual([204, 204]);
    expect(dataOf(await a.list('roletag-denylist'))).toEqual({ keys: [value] });
  });
});
