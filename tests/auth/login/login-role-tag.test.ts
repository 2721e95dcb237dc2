import { beforeAll, describe, expect, it } from 'vitest';
import { formatTimestamp } from '../../../src/lib/time.js';
import { dataOf } from '../admin-harness.js';
import {
  accessListEntry,
  grantOf,
  loginHarness,
  refusalOf,
  SYNTHETIC,
  syntheticPkcs7,
  type LoginHarness,
} from './login-harness.js';

const TAG_KEY = 'VaultRole';
let pkcs7: string;
beforeAll(async () => {
  pkcs7 = await syntheticPkcs7();
});

interface Setup {
  role?: Record<string, unknown>;
  tag?: Record<string, unknown>;
  options?: Parameters<typeof loginHarness>[0];
}

/** Role `web` with role tags enabled, a tag made with `tag`, and the synthetic instance carrying it. */
async function tagged(setup: Setup = {}): Promise<{ h: LoginHarness; value: string }> {
  const h = loginHarness(setup.options);
  await h.trustTestSigner();
  await h.role('web', {
    auth_type: 'ec2',
    bound_ami_id: SYNTHETIC.imageId,
    role_tag: TAG_KEY,
    token_policies: 'p,q,r,s',
    ...setup.role,
  });
  const value = dataOf(await h.write('role/web/tag', setup.tag ?? {})).tag_value as string;
  h.addInstance(SYNTHETIC, { tags: { Name: 'web-1', [TAG_KEY]: value } });
  return { h, value };
}

const login = (h: LoginHarness, body: Record<string, unknown> = {}) => h.login({ role: 'web', pkcs7, ...body });

describe('role tags at ec2 login', () => {
  it("narrows the grant: the tag's policies replace the role's, and its max TTL caps the grant", async () => {
    const { h } = await tagged({ role: { token_max_ttl: '2h' }, tag: { policies: 'p,q', max_ttl: '100s' } });
    const grant = grantOf(await login(h));
    expect(grant.policies).toEqual(['p', 'q']);
    expect(grant.max_ttl).toBe(100);
    expect(grant.metadata.role_tag_max_ttl).toBe('1m40s');
    expect(grant.internal_data.role_tag_max_ttl).toBe(100);
  });

  it('inherits the role policies without p=, grants none with an explicitly empty list', async () => {
    const inherited = await tagged();
    expect(grantOf(await login(inherited.h)).policies).toEqual(['p', 'q', 'r', 's']);
    const none = await tagged({ tag: { policies: '' } });
    expect(none.value).toContain(':p=:');
    expect(grantOf(await login(none.h)).policies).toEqual([]);
  });

  it("names the tag's policies as the role spells them", async () => {
    const { h } = await tagged({ role: { token_policies: 'Web-Reader,Admin' }, tag: { policies: 'web-reader' } });
    expect(grantOf(await login(h)).policies).toEqual(['Web-Reader']);
  });

  it('compares the role named in the tag case-insensitively', async () => {
    const { h } = await tagged();
    const grant = grantOf(await login(h, { role: 'WEB' }));
    expect(grant.metadata.role).toBe('WEB');
  });

  it('uses the longest max TTL for the access list and the shortest for the grant', async () => {
    const { h } = await tagged({
      options: { mountMaxTtl: 3600 },
      role: { token_max_ttl: '2h' },
      tag: { max_ttl: '3h' },
    });
    const grant = grantOf(await login(h));
    expect(grant.max_ttl).toBe(3600);
    expect(grant.metadata.role_tag_max_ttl).toBe('3h0m0s');
    const entry = await accessListEntry(h, SYNTHETIC.instanceId);
    expect(entry?.expiration_time).toBe(formatTimestamp(h.clock.now().getTime() + 3 * 3600 * 1000));
  });

  it('a tag disallowing reauthentication makes the login the only one', async () => {
    const { h } = await tagged({ tag: { disallow_reauthentication: true } });
    expect(grantOf(await login(h)).metadata.nonce).toBeUndefined();
    expect(await accessListEntry(h, SYNTHETIC.instanceId)).toMatchObject({
      client_nonce: '',
      disallow_reauthentication: true,
    });
    expect(refusalOf(await login(h))).toEqual([403, 'reauthentication is disabled']);
  });

  it("ignores the tag's allow_instance_migration: only the role's counts", async () => {
    const { h } = await tagged({ tag: { allow_instance_migration: true } });
    await login(h);
    const newer = await syntheticPkcs7({ pendingTime: '2026-02-01T00:00:00Z' });
    expect(refusalOf(await h.login({ role: 'web', pkcs7: newer }))).toEqual([403, 'client nonce mismatch']);
  });

  it('accepts a tag bound to this instance, refuses one bound to another', async () => {
    const own = await tagged({ tag: { instance_id: SYNTHETIC.instanceId.toUpperCase() } });
    expect((await login(own.h)).status).toBe(200);
    const other = await tagged({ tag: { instance_id: 'i-0fedcba9876543210' } });
    expect(refusalOf(await login(other.h))).toEqual([403, 'role tag is being used by an unauthorized instance']);
  });

  it('refuses a missing, malformed, forged or foreign tag with 403, storing nothing', async () => {
    const { h, value } = await tagged();
    const withTag = (tags: Record<string, string>) => h.addInstance(SYNTHETIC, { tags });
    const cases: [Record<string, string>, string][] = [
      [{}, `missing tag with key "${TAG_KEY}" on the instance`],
      [{ [TAG_KEY]: '' }, `missing tag with key "${TAG_KEY}" on the instance`],
      [{ vaultrole: value }, `missing tag with key "${TAG_KEY}" on the instance`],
      [{ [TAG_KEY]: 'garbage' }, 'invalid role tag on the instance: invalid tag'],
      [{ [TAG_KEY]: value.replace(':d=false:', ':d=true:') }, 'role tag signature verification failed'],
      [{ [TAG_KEY]: `${value.slice(0, -2)}AA` }, 'role tag signature verification failed'],
    ];
    for (const [tags, message] of cases) {
      withTag(tags);
      expect(refusalOf(await login(h)), message).toEqual([403, message]);
    }
    await h.role('other', { auth_type: 'ec2', bound_ami_id: SYNTHETIC.imageId, role_tag: TAG_KEY });
    withTag({ [TAG_KEY]: dataOf(await h.write('role/other/tag', {})).tag_value as string });
    expect(refusalOf(await login(h))).toEqual([403, 'role on the tag is not matching the role supplied']);
    expect(await accessListEntry(h, SYNTHETIC.instanceId)).toBeUndefined();
  });

  it('refuses a deny-listed tag, whatever its spelling in the deny list path', async () => {
    const { h, value } = await tagged();
    expect((await h.write(`roletag-denylist/${Buffer.from(value).toString('base64')}`)).status).toBe(204);
    expect(refusalOf(await login(h))).toEqual([403, 'role tag is deny listed']);
    await h.remove(`roletag-denylist/${value}`);
    expect((await login(h)).status).toBe(200);
  });

  it("refuses a tag whose policies are no longer all the role's", async () => {
    const { h } = await tagged({ tag: { policies: 'p,q' } });
    await h.role('web', { token_policies: 'p' });
    expect(refusalOf(await login(h))).toEqual([403, 'policies on the role tag must be subset of policies on the role']);
  });
});
