// A LIST (or SCAN) of `folder/` is matched as `folder` and as `folder/` together: the most specific rule granting the
// capability wins unless a more specific deny matches. Before, `folder` alone was tried first, so a broad grant hid a
// deny on `folder/*` (a LIST of secret/metadata/private/ answered the names that secret/metadata/private/* denies).
import { describe, expect, it } from 'vitest';
import { Acl, parsePolicy, type RequiredCapability } from '../../src/acl/index.js';
import type { CapabilityCheck } from '../../src/core/framework/request.js';

const aclOf = (...texts: string[]) => new Acl(texts.map((text, i) => ({ name: `p${i}`, rules: parsePolicy(text) })));

describe('LIST of a folder with rules on both of its forms', () => {
  const acl = aclOf(`
    path "secret/metadata/*"              { capabilities = ["list", "read"] }
    path "secret/metadata/private/*"      { capabilities = ["deny"] }
    path "secret/metadata/private/open/*" { capabilities = ["list"] }
    path "secret/metadata/+/hidden"       { capabilities = ["deny"] }
    path "secret/metadata/te*"            { capabilities = ["list"] }
    path "secret/metadata/team/*"         { capabilities = ["read"] }
    path "secret/metadata/exact"          { capabilities = ["list"] }
    path "secret/metadata/exact/*"        { capabilities = ["deny"] }
    path "secret/metadata/both"           { capabilities = ["list"] }
    path "secret/metadata/both/"          { capabilities = ["deny"] }
    path "kv1/+"                          { capabilities = ["list"] }
    path "kv1/*"                          { capabilities = ["read"] }
    path "kv1/secret/*"                   { capabilities = ["deny"] }
  `);

  it.each([
    // The deny on "private/*" is more specific than the grant "secret/metadata/*" that matches "private".
    ['secret/metadata/private/', false],
    ['secret/metadata/private/deeper/', false],
    // A grant more specific than the deny wins below it.
    ['secret/metadata/private/open/', true],
    ['secret/metadata/private/open/more/', true],
    // A segment deny matching "x/hidden" (the form without the slash) ranks above the glob grant.
    ['secret/metadata/x/hidden/', false],
    ['secret/metadata/x/visible/', true],
    // "te*" matches "team" and grants list; the more specific "team/*" does not deny, so the grant stands.
    ['secret/metadata/team/', true],
    // An exact rule beats every glob: the exact "exact" grants listing "exact/" despite "exact/*".
    ['secret/metadata/exact/', true],
    // Both forms named exactly: the form with the slash is the LIST's own path, and it wins.
    ['secret/metadata/both/', false],
    ['secret/metadata/', true],
    // "kv1/+" matches "kv1/private" and is more specific than "kv1/*" (same position, not a prefix): it grants.
    ['kv1/private/', true],
    ['kv1/secret/', false],
    // As in Vault, "+" matches an empty segment too: "kv1/+" matches "kv1/".
    ['kv1/', true],
    ['elsewhere/', false],
  ] as const)('LIST %s → %s', (path, allowed) => {
    expect(acl.allows('list', path)).toBe(allowed);
    // The policies never name scan, so a SCAN is judged like the LIST.
    expect(acl.allows('scan', path)).toBe(allowed);
    expect(acl.capabilities(path).includes('list')).toBe(allowed);
    expect(acl.allowsMany([{ capability: 'list', path }])).toEqual([allowed]);
  });

  it('a LIST path without its slash is matched as it is', () => {
    expect(acl.allows('list', 'secret/metadata/private')).toBe(true);
    expect(acl.allows('list', 'secret/metadata/private/x')).toBe(false);
    // Only a trailing '/' is dropped for the second form: a LIST of "abc" is not one of "ab".
    expect(aclOf('path "ab" { capabilities = ["list"] }').allows('list', 'abc')).toBe(false);
  });

  it('other capabilities on a folder path take no LIST fallback', () => {
    expect(acl.allows('read', 'kv1/private/')).toBe(true);
    expect(acl.allows('read', 'secret/metadata/exact/')).toBe(false);
    expect(acl.capabilities('kv1/private/')).toEqual(['read', 'list']);
    expect(acl.capabilities('secret/metadata/exact/')).toEqual(['list']);
  });
});

describe('LIST and SCAN pick the most specific rule granting what they need', () => {
  it('a deny between two grants: the grant above it wins, the one below it loses', () => {
    const acl = aclOf(
      'path "a/*" { capabilities = ["list"] }\npath "a/b*" { capabilities = ["deny"] }\npath "a/bc/*" { capabilities = ["list"] }',
    );
    expect(acl.allows('list', 'a/bc/')).toBe(true);
    expect(acl.allows('list', 'a/bd/')).toBe(false);
    expect(acl.allows('list', 'a/c/')).toBe(true);
  });

  it('a more specific rule without the capability does not hide a grant (the VAULT-3825 fallback)', () => {
    const acl = aclOf('path "a/b*" { capabilities = ["list"] }\npath "a/b/*" { capabilities = ["read"] }');
    expect(acl.allows('list', 'a/b/')).toBe(true);
    expect(acl.capabilities('a/b/')).toEqual(['read', 'list']);
  });

  it("SCAN weighs its own grants: the folder name's glob grants scan, the longer glob only list", () => {
    const acl = aclOf(`
      path "s/*"      { capabilities = ["scan"] }
      path "s/team/*" { capabilities = ["list"] }
      path "s/team/hidden/*" { capabilities = ["deny"] }
    `);
    const verdicts = (path: string) =>
      (['list', 'scan'] as RequiredCapability[]).map((capability) => acl.allows(capability, path));
    expect(verdicts('s/team/')).toEqual([true, true]);
    // Of the globs only the longest matching one is weighed, for "s/team/x" as for "s/team/x/": "s/team/*".
    expect(verdicts('s/team/x/')).toEqual([true, false]);
    expect(verdicts('s/team/hidden/')).toEqual([false, false]);
    expect(verdicts('s/other/')).toEqual([false, true]);
    expect(acl.capabilities('s/team/')).toEqual(['list', 'scan']);
  });

  it('a LIST of the empty folder "/" is matched as "" and "/"', () => {
    expect(aclOf('path "*" { capabilities = ["list"] }').allows('list', '/')).toBe(true);
    expect(aclOf('path "+" { capabilities = ["list"] }').allows('list', '/')).toBe(true);
  });
});

// A listing's own check lets the caller into a folder; each name it would show is then asked about with `shows`, which
// hides a name only where a deny decides it, as Vault shows every name of a folder the token may list.
describe('Acl.shows: which names a listing shows', () => {
  const acl = aclOf(`
    path "secret/metadata/"          { capabilities = ["list"] }
    path "secret/metadata/app/*"     { capabilities = ["read"] }
    path "secret/metadata/app/web"   { capabilities = ["deny"] }
    path "secret/metadata/hr/*"      { capabilities = ["deny"] }
    path "secret/metadata/hr/open/*" { capabilities = ["list"] }
    path "secret/metadata/+/hidden"  { capabilities = ["deny"] }
    path "secret/metadata/team/"     { capabilities = ["deny"] }
    path "secret/metadata/ops"       { capabilities = ["read"] }
    path "secret/metadata/ops/*"     { capabilities = ["deny"] }
    path "secret/metadata/dev"       { capabilities = ["list"] }
    path "secret/metadata/dev/*"     { capabilities = ["deny"] }
    path "secret/metadata/qa/"       { capabilities = ["read"] }
    path "secret/metadata/qa"        { capabilities = ["deny"] }
    path "secret/metadata/p/x*"      { capabilities = ["deny"] }
    path "secret/metadata/p/xy/*"    { capabilities = ["scan"] }
  `);

  it.each([
    // No rule decides the name: the folder's grant covers it.
    ['list', 'secret/metadata/top', true],
    ['list', 'secret/metadata/zeta/', true],
    // A rule that grants no list but is no deny decides it: shown, as in Vault.
    ['list', 'secret/metadata/app/db', true],
    // The rule that decides a key is a deny: an exact one, a glob, a segment rule.
    ['list', 'secret/metadata/app/web', false],
    ['list', 'secret/metadata/hr/alice', false],
    ['scan', 'secret/metadata/hr/sub/bob', false],
    ['list', 'secret/metadata/x/hidden', false],
    // A sub-folder a deny matches in either form, with no grant above it: hidden.
    ['list', 'secret/metadata/hr/', false],
    ['list', 'secret/metadata/hr/sub/', false],
    ['list', 'secret/metadata/x/hidden/', false],
    // A more specific grant under the deny shows its folder and its names.
    ['list', 'secret/metadata/hr/open/', true],
    ['list', 'secret/metadata/hr/open/x', true],
    // An exact deny on a sub-folder hides it; the key of the same name is another path.
    ['list', 'secret/metadata/team/', false],
    ['list', 'secret/metadata/team', true],
    // An exact rule on a sub-folder that neither grants nor denies says nothing of its names: the deny below hides it.
    ['list', 'secret/metadata/ops/', false],
    ['list', 'secret/metadata/ops', true],
    ['list', 'secret/metadata/ops/x', false],
    ['list', 'secret/metadata/qa/', false],
    // An exact grant of the capability ranks above every glob, as for allows; the names below stay denied.
    ['list', 'secret/metadata/dev/', true],
    ['list', 'secret/metadata/dev/x', false],
    // A grant ranks above a deny only for the capability it grants: scan here, not list.
    ['scan', 'secret/metadata/p/xy/', true],
    ['list', 'secret/metadata/p/xy/', false],
    ['list', 'secret/metadata/p/xz/', false],
  ] as const)('%s of %s → %s', (capability, path, shown) => {
    expect(acl.shows(capability, path)).toBe(shown);
    expect(acl.allowsMany([{ capability, path, listing: true }])).toEqual([shown]);
    expect(acl.authorizer('')({ capability, path, listing: true })).toBe(shown);
    // Whatever allows grants is shown.
    if (acl.allows(capability, path)) expect(shown).toBe(true);
  });

  it('the root policy shows every name', () => {
    const root = new Acl([
      { name: 'root', rules: [] },
      { name: 'p', rules: parsePolicy('path "a/*" { capabilities = ["deny"] }') },
    ]);
    expect(root.shows('list', 'a/b')).toBe(true);
    expect(root.shows('scan', 'a/b/')).toBe(true);
  });

  it('only a list or scan check marked exactly `listing: true` is a listing check; any other is judged by allows', () => {
    const authorize = acl.authorizer('secret/');
    // Not denied, and not granted: shown only when asked as a listing's check.
    for (const check of [
      { capability: 'list', path: 'metadata/top' },
      { capability: 'scan', path: 'metadata/zeta/' },
    ] as const) {
      expect(authorize({ ...check, listing: true })).toBe(true);
      expect(authorize.many([{ ...check, listing: true }])).toEqual([true]);
      expect(authorize(check)).toBe(false);
      expect(authorize.many([check])).toEqual([false]);
      for (const mark of [false, 1, 'true']) {
        const odd = { ...check, listing: mark } as unknown as CapabilityCheck;
        expect(authorize(odd)).toBe(false);
        expect(authorize.many([odd])).toEqual([false]);
      }
    }
    // A read check is never a listing's: the mark asks nothing milder.
    const read: CapabilityCheck = { capability: 'read', path: 'metadata/top', listing: true };
    expect(authorize(read)).toBe(false);
    expect(authorize.many([read])).toEqual([false]);
    expect(acl.allowsMany([{ ...read, path: `secret/${read.path}` }])).toEqual([false]);
  });
});
