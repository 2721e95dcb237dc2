// A LIST (or SCAN) of `folder/` is matched as `folder` and as `folder/` together: the most specific rule granting the
// capability wins unless a more specific deny matches. Before, `folder` alone was tried first, so a broad grant hid a
// deny on `folder/*` (a LIST of secret/metadata/private/ answered the names that secret/metadata/private/* denies).
import { describe, expect, it } from 'vitest';
import { Acl, parsePolicy, type RequiredCapability } from '../../src/acl/index.js';

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
    const acl = aclOf('path "a/*" { capabilities = ["list"] }\npath "a/b*" { capabilities = ["deny"] }\npath "a/bc/*" { capabilities = ["list"] }');
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
    const verdicts = (path: string) => (['list', 'scan'] as RequiredCapability[]).map((capability) => acl.allows(capability, path));
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
