import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalRoleTag,
  parseRoleTag,
  roleTagNamesRole,
  roleTagPlaintext,
  roleTagPoliciesAllowed,
  signRoleTag,
  verifyRoleTag,
  type RoleTag,
} from '../../../src/auth/roles/role-tag.js';
import type { AdminHarness } from '../admin-harness.js';
import { adminHarness, dataOf, errorOf, warningsOf } from '../admin-harness.js';

const TAG_ROLE = { auth_type: 'ec2', bound_ami_id: 'abcd-123', role_tag: 'VaultRole', policies: 'p,q,r,s' };

async function hmacKeyOf(h: AdminHarness, role: string): Promise<string> {
  return JSON.parse(new TextDecoder().decode(await h.storage.get(`auth/role/${role}`))).hmac_key;
}

async function createTag(h: AdminHarness, body: Record<string, unknown> = {}, role = 'abcd-123') {
  const response = await h.write(`role/${role}/tag`, body);
  return { response, value: dataOf(response).tag_value as string };
}

describe('role/:role/tag', () => {
  it('answers the tag key and a tag value that parses back to what was asked', async () => {
    const h = adminHarness();
    await h.write('role/ABCD-123', TAG_ROLE);
    const { response, value } = await createTag(h, {
      policies: 'R, q,p',
      max_ttl: '200s',
      instance_id: 'I-ABC',
      disallow_reauthentication: true,
    });
    expect(dataOf(response).tag_key).toBe('VaultRole');
    expect(value).toMatch(/^v1:[A-Za-z0-9_-]{11}:r=abcd-123:d=true:m=false:p=p,q,r:i=i-abc:t=200:[A-Za-z0-9_-]{43}$/);
    const tag = parseRoleTag(value);
    expect(tag).toMatchObject({
      role: 'abcd-123',
      policies: ['p', 'q', 'r'],
      instanceId: 'i-abc',
      maxTtl: 200,
      disallowReauthentication: true,
      allowInstanceMigration: false,
    });
    expect(verifyRoleTag(tag, await hmacKeyOf(h, 'abcd-123'))).toBe(true);
    expect(canonicalRoleTag(tag)).toBe(value);
  });

  it('omits p= when policies are absent (inherit) and writes an empty p= when they are explicitly empty', async () => {
    const h = adminHarness();
    await h.write('role/abcd-123', TAG_ROLE);
    const inherit = parseRoleTag((await createTag(h)).value);
    expect(inherit.policies).toBeUndefined();
    expect((await createTag(h)).value).not.toContain(':p=');
    const none = await createTag(h, { policies: [] });
    expect(none.value).toContain(':p=:');
    expect(parseRoleTag(none.value).policies).toEqual([]);
    expect((await createTag(h, { policies: '' })).value).toContain(':p=:');
    expect(parseRoleTag((await createTag(h)).value).nonce).not.toBe(inherit.nonce);
  });

  it('refuses policies outside the role, both flags, a negative max_ttl and roles without role_tag', async () => {
    const h = adminHarness();
    await h.write('role/abcd-123', TAG_ROLE);
    expect(errorOf(await h.write('role/abcd-123/tag', { policies: 'p,admin' }))).toBe(
      'policies on the role tag must be subset of policies on the role',
    );
    expect(
      errorOf(await h.write('role/abcd-123/tag', { allow_instance_migration: true, disallow_reauthentication: true })),
    ).toBe('cannot set both disallow_reauthentication and allow_instance_migration');
    expect(errorOf(await h.write('role/abcd-123/tag', { max_ttl: -1 }))).toBe('max_ttl cannot be negative');
    expect(errorOf(await h.write('role/abcd-123/tag', { instance_id: 'i:1' }))).toBe(
      "instance_id of a role tag cannot contain ':'",
    );
    expect(errorOf(await h.write('role/missing/tag', {}))).toBe('entry not found for role missing');
    await h.write('role/notags', { auth_type: 'ec2', bound_ami_id: 'ami-1' });
    expect(errorOf(await h.write('role/notags/tag', {}))).toBe('tag creation is not enabled for this role');
  });

  it('warns when the tag asks for more than the role or the mount allows', async () => {
    const h = adminHarness({ mountMaxTtl: 1000 });
    await h.write('role/abcd-123', { ...TAG_ROLE, token_max_ttl: 500 });
    const { response } = await createTag(h, { max_ttl: 2000, allow_instance_migration: true });
    expect(response.status).toBe(200);
    expect(warningsOf(response)).toEqual([
      'Role does not allow instance migration. Login will not be allowed with this tag unless the role value is updated.',
      'Given max TTL of 2000 is greater than the mount maximum of 1000 seconds, and will be capped at login time.',
      'Given max TTL of 2000 is greater than the role maximum of 500 seconds, and will be capped at login time.',
    ]);
  });

  it('refuses a tag value longer than 255 characters', async () => {
    const h = adminHarness();
    const policies = Array.from({ length: 30 }, (_, i) => `policy-number-${i}`);
    await h.write('role/abcd-123', { ...TAG_ROLE, token_policies: policies });
    expect(errorOf(await h.write('role/abcd-123/tag', { policies }))).toBe(
      "role tag 'value' exceeding the limit of 255 characters",
    );
    expect((await h.write('role/abcd-123/tag', { policies: policies.slice(0, 5) })).status).toBe(200);
  });

  it('never shows the HMAC key', async () => {
    const h = adminHarness();
    await h.write('role/abcd-123', TAG_ROLE);
    const key = await hmacKeyOf(h, 'abcd-123');
    const { response } = await createTag(h);
    expect(JSON.stringify(response)).not.toContain(key);
  });
});

describe('role tag parsing and verification', () => {
  const base: RoleTag = {
    nonce: 'AAAAAAAAAAA',
    role: 'web',
    policies: ['a', 'b'],
    instanceId: 'i-1',
    maxTtl: 60,
    disallowReauthentication: false,
    allowInstanceMigration: true,
  };
  const key = 'role-hmac-key';

  it('verifies with the role key only', () => {
    const tag = parseRoleTag(signRoleTag(base, key));
    expect(verifyRoleTag(tag, key)).toBe(true);
    expect(verifyRoleTag(tag, 'another-role-key')).toBe(false);
  });

  it('rejects forged tags: any changed field, an altered version, a truncated or substituted HMAC', () => {
    const value = signRoleTag(base, key);
    const forgeries = [
      value.replace(':p=a,b:', ':p=a,b,admin:'),
      value.replace(':p=a,b', ''),
      value.replace(':t=60:', ':t=6000:'),
      value.replace(':i=i-1', ''),
      value.replace(':d=false:', ':d=true:'),
      value.replace(':r=web:', ':r=admin:'),
      value.replace(':AAAAAAAAAAA:', ':AAAAAAAAAAB:'),
      value.slice(0, -1),
      `${value.slice(0, value.lastIndexOf(':'))}:${signRoleTag({ ...base, role: 'other' }, key)
        .split(':')
        .at(-1)}`,
    ];
    for (const forgery of forgeries) expect(verifyRoleTag(parseRoleTag(forgery), key), forgery).toBe(false);
    expect(() => parseRoleTag(value.replace(/^v1:/, 'v2:'))).toThrow('invalid role tag version');
  });

  it('rebuilds the canonical plaintext whatever the item order and flag spelling', () => {
    const value = signRoleTag(base, key);
    const items = value.split(':');
    const shuffled = [items[0], items[1], items[6], items[3], items[2], items[5], 'm=1', items[7], items[8]].join(':');
    const tag = parseRoleTag(shuffled);
    expect(verifyRoleTag(tag, key)).toBe(true);
    expect(canonicalRoleTag(tag)).toBe(value);
  });

  it('refuses malformed tags with a message naming the problem', () => {
    const cases: [string, string][] = [
      ['v1:n:r=web', 'invalid tag'],
      ['v1::r=web:d=false:h', 'invalid tag'],
      ['v1:n:d=false:m=false:h', 'missing role name'],
      ['v1:n:r=web:x=1:h', 'unrecognized item "x=1" in tag'],
      ['v1:n:r=web:r=admin:h', 'repeated item "r=admin" in tag'],
      ['v1:n:r=web:d=maybe:h', 'invalid boolean in item "d=maybe" of tag'],
      ['v1:n:r=web:t=-5:h', 'invalid max TTL in item "t=-5" of tag'],
    ];
    for (const [value, message] of cases) expect(() => parseRoleTag(value), value).toThrow(message);
  });

  it('property: a signed tag round-trips, and changing any one character breaks verification', () => {
    const safeText = fc.stringMatching(/^[a-z0-9_.-]{1,12}$/);
    const tags = fc.record({
      nonce: fc.stringMatching(/^[A-Za-z0-9_-]{11}$/),
      role: safeText,
      policies: fc.option(fc.array(safeText, { maxLength: 4 }), { nil: undefined }),
      instanceId: fc.oneof(fc.constant(''), safeText),
      maxTtl: fc.nat({ max: 10_000_000 }),
      disallowReauthentication: fc.boolean(),
      allowInstanceMigration: fc.boolean(),
    });
    fc.assert(
      fc.property(tags, fc.nat(), fc.integer({ min: 33, max: 126 }), (tag, position, code) => {
        const value = signRoleTag(tag, key);
        const parsed = parseRoleTag(value);
        expect(verifyRoleTag(parsed, key)).toBe(true);
        expect(roleTagPlaintext(parsed)).toBe(roleTagPlaintext(tag));
        const index = position % value.length;
        const replacement = String.fromCharCode(code);
        fc.pre(value[index] !== replacement);
        const tampered = value.slice(0, index) + replacement + value.slice(index + 1);
        let accepted: boolean;
        try {
          const candidate = parseRoleTag(tampered);
          accepted = verifyRoleTag(candidate, key) && canonicalRoleTag(candidate) !== value;
        } catch {
          accepted = false;
        }
        expect(accepted).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('compares role names case-insensitively and policies within the role', () => {
    expect(roleTagNamesRole(base, 'WEB')).toBe(true);
    expect(roleTagNamesRole(base, 'web2')).toBe(false);
    expect(roleTagPoliciesAllowed(['a', 'b'], ['A', 'b', 'c'])).toBe(true);
    expect(roleTagPoliciesAllowed(['a', 'd'], ['a', 'b'])).toBe(false);
    expect(roleTagPoliciesAllowed([], [])).toBe(true);
  });
});
