import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Acl, parsePolicy, type NamedPolicy, type RequiredCapability } from '../../src/acl/index.js';

const ALL: RequiredCapability[] = ['create', 'read', 'update', 'patch', 'delete', 'list', 'sudo'];

function policy(name: string, text: string): NamedPolicy {
  return { name, rules: parsePolicy(text) };
}

function aclOf(...texts: string[]): Acl {
  return new Acl(texts.map((text, i) => policy(`p${i}`, text)));
}

function granted(acl: Acl, path: string): RequiredCapability[] {
  return ALL.filter((capability) => acl.allows(capability, path));
}

describe('Acl: exact and prefix rules', () => {
  const acl = aclOf(`
    path "secret/data/app/*"      { capabilities = ["read", "list"] }
    path "secret/data/app/admin"  { capabilities = ["read", "update"] }
    path "secret/data/app/ops/*"  { capabilities = ["deny"] }
    path "secret/metadata/*"      { capabilities = ["list"] }
    path "secret/config"          { capabilities = ["read"] }
  `);

  it.each([
    ['secret/data/app/db', ['read', 'list']],
    ['secret/data/app/', ['read', 'list']],
    ['secret/data/app/deep/er/key', ['read', 'list']],
    // The exact rule replaces the glob entirely: no list here, although the glob grants it.
    ['secret/data/app/admin', ['read', 'update']],
    ['secret/data/app/administrator', ['read', 'list']],
    ['secret/data/app/ops/x', []],
    // A LIST of "app/ops/" is matched as "app/ops" too, which only "app/*" covers; the deny on "app/ops/*" is more
    // specific and wins.
    ['secret/data/app/ops/', []],
    // The glob "app/ops/*" does not cover "app/ops": the shorter glob "app/*" does.
    ['secret/data/app/ops', ['read', 'list']],
    ['secret/data/app', []],
    ['secret/config', ['read']],
    ['secret/config/x', []],
    ['secret/configuration', []],
    ['other/path', []],
    ['', []],
  ] as const)('%s', (path, expected) => {
    expect(granted(acl, path)).toEqual(expected);
  });

  it('matches paths literally: no case folding, no normalisation', () => {
    expect(acl.allows('read', 'SECRET/config')).toBe(false);
    expect(acl.allows('read', 'secret//config')).toBe(false);
  });

  it('strips a leading slash from rule paths, as Vault does', () => {
    const slashed = aclOf('path "/secret/x" { capabilities = ["read"] }');
    expect(slashed.allows('read', 'secret/x')).toBe(true);
  });

  it('a bare * matches every path, including the empty one', () => {
    const everything = aclOf('path "*" { capabilities = ["read"] }');
    expect(everything.allows('read', '')).toBe(true);
    expect(everything.allows('read', 'a/b/c/')).toBe(true);
    expect(everything.allows('update', 'a')).toBe(false);
  });
});

describe('Acl: LIST fallbacks', () => {
  it('an exact rule without the trailing slash grants LIST of the folder', () => {
    const acl = aclOf('path "secret/metadata/team" { capabilities = ["list"] }');
    expect(acl.allows('list', 'secret/metadata/team/')).toBe(true);
    expect(acl.allows('list', 'secret/metadata/team')).toBe(true);
    // Only LIST falls back: a read of the folder path is not covered.
    const readable = aclOf('path "secret/metadata/team" { capabilities = ["read"] }');
    expect(readable.allows('read', 'secret/metadata/team/')).toBe(false);
  });

  it('a glob matching the folder name without its slash grants LIST, unless a more specific deny matches', () => {
    const lister = 'path "secret/metadata/te*" { capabilities = ["list"] }';
    expect(aclOf(lister).allows('list', 'secret/metadata/team/')).toBe(true);
    // "team/" matches the deny glob, which ranks above "te*": the folder cannot be listed, nor anything below it.
    const acl = aclOf(lister, 'path "secret/metadata/team/*" { capabilities = ["deny"] }');
    expect(acl.allows('list', 'secret/metadata/team/')).toBe(false);
    expect(acl.allows('list', 'secret/metadata/team/sub/')).toBe(false);
  });

  it('a segment wildcard rule without a trailing slash grants LIST of the folder', () => {
    const acl = aclOf('path "+/sys/policies/acl" { capabilities = ["list"] }');
    expect(acl.allows('list', 'ns/sys/policies/acl/')).toBe(true);
    expect(acl.allows('read', 'ns/sys/policies/acl/')).toBe(false);
  });
});

describe('Acl: segment wildcards (+)', () => {
  const acl = aclOf(`
    path "kv/+/shared"          { capabilities = ["read"] }
    path "+/front/door"         { capabilities = ["read"] }
    path "kv/tail/+"            { capabilities = ["read"] }
    path "kv/slash/+/"          { capabilities = ["read"] }
    path "kv/+/deep/+/*"        { capabilities = ["read"] }
    path "kv/+/globbed/+/end*"  { capabilities = ["read"] }
    path "kv/+bar"              { capabilities = ["read"] }
  `);

  it.each([
    ['kv/team/shared', true],
    ['kv/other/shared', true],
    ['kv/a/b/shared', false],
    ['kv/shared', false],
    ['any/front/door', true],
    ['any/front/doors', false],
    ['kv/tail/x', true],
    ['kv/tail/x/', false],
    ['kv/tail/', true],
    ['kv/slash/x/', true],
    ['kv/slash/x', false],
    ['kv/a/deep/b/', true],
    ['kv/a/deep/b/c/d', true],
    ['kv/a/deep/b', false],
    ['kv/a/globbed/b/end', true],
    ['kv/a/globbed/b/ending/more', true],
    ['kv/a/globbed/b/en', false],
    // Only the last segment of a glob matches as a prefix.
    ['kv/a/globbedX/b/end', false],
    // "+bar" is not a whole-segment wildcard: it only matches itself.
    ['kv/+bar', true],
    ['kv/foobar', false],
  ] as const)('%s → %s', (path, allowed) => {
    expect(acl.allows('read', path)).toBe(allowed);
  });

  it('refuses "+*"', () => {
    expect(() => parsePolicy('path "kv/+*" { capabilities = ["read"] }')).toThrow(/'\+\*' is forbidden/);
  });
});

describe('Acl: priority among matching wildcard rules (the more specific wins)', () => {
  // Each pair: the first rule grants read, the second update; the second must win on the path.
  it.each([
    ['+/*', '*', 'a/b/c/d'],
    ['+/*', 'a/+/*', 'a/b/c/d'],
    ['a/+/+/*', 'a/+/c/d', 'a/b/c/d'],
    ['a/+/+/d', 'a/+/c/d', 'a/b/c/d'],
    ['a/+/(c/d', 'a/(c/+/d', 'a/(c/(c/d'],
    ['a/b/+/d*', 'a/b/+/d', 'a/b/c/d'],
    ['a/b/+/d*', 'a/b/+/de*', 'a/b/c/def'],
    ['a/+/c', 'a/b*', 'a/b/c'],
    ['a/*', 'a/+/c', 'a/b/c'],
  ])('%s loses to %s on %s', (weaker, stronger, path) => {
    const acl = aclOf(`path "${weaker}" { capabilities = ["read"] }\npath "${stronger}" { capabilities = ["update"] }`);
    expect(granted(acl, path)).toEqual(['update']);
    const reversed = aclOf(
      `path "${stronger}" { capabilities = ["update"] }`,
      `path "${weaker}" { capabilities = ["read"] }`,
    );
    expect(granted(reversed, path)).toEqual(['update']);
  });

  it('the longest matching prefix glob wins over shorter ones', () => {
    const acl = aclOf(
      'path "a/*" { capabilities = ["read"] }',
      'path "a/b/*" { capabilities = ["update"] }',
      'path "a/b/c*" { capabilities = ["delete"] }',
    );
    expect(granted(acl, 'a/x')).toEqual(['read']);
    expect(granted(acl, 'a/b/x')).toEqual(['update']);
    expect(granted(acl, 'a/b/cde')).toEqual(['delete']);
  });
});

describe('Acl: several policies', () => {
  it('adds up the capabilities rules give the same path', () => {
    const acl = aclOf('path "s/x" { capabilities = ["read"] }', 'path "s/x" { capabilities = ["update", "list"] }');
    expect(granted(acl, 's/x')).toEqual(['read', 'update', 'list']);
  });

  it('a deny for the same path in any policy wins, whatever the order', () => {
    const allow = 'path "s/x" { capabilities = ["read", "update"] }';
    const deny = 'path "s/x" { capabilities = ["deny"] }';
    expect(granted(aclOf(allow, deny), 's/x')).toEqual([]);
    expect(granted(aclOf(deny, allow), 's/x')).toEqual([]);
    expect(granted(aclOf(allow, deny, allow), 's/x')).toEqual([]);
  });

  it('a deny on a broader glob does not override a more specific grant (Vault semantics)', () => {
    const acl = aclOf(
      'path "s/*" { capabilities = ["deny"] }',
      'path "s/open/*" { capabilities = ["read"] }',
      'path "s/key" { capabilities = ["read"] }',
    );
    expect(acl.allows('read', 's/open/a')).toBe(true);
    expect(acl.allows('read', 's/key')).toBe(true);
    expect(acl.allows('read', 's/other')).toBe(false);
  });

  it('the same path twice in one policy merges like two policies', () => {
    const acl = aclOf('path "s/x" { capabilities = ["read"] }\npath "s/x" { capabilities = ["patch"] }');
    expect(granted(acl, 's/x')).toEqual(['read', 'patch']);
  });

  it('layers like Vault: a second policy can deny part of a first one and widen another part', () => {
    const acl = aclOf(
      'path "dev/*" { policy = "sudo" }\npath "prod/*" { policy = "read" }\npath "prod/aws/*" { policy = "deny" }',
      'path "dev/hide/*" { policy = "deny" }\npath "prod/*" { policy = "write" }',
    );
    expect(granted(acl, 'dev/foo')).toEqual(['create', 'read', 'update', 'delete', 'list', 'sudo']);
    expect(granted(acl, 'dev/hide/foo')).toEqual([]);
    expect(granted(acl, 'prod/foo')).toEqual(['create', 'read', 'update', 'delete', 'list']);
    expect(granted(acl, 'prod/aws/foo')).toEqual([]);
  });

  it('refuses hand-built rules with unknown capabilities', () => {
    const rules = [{ path: 'a', capabilities: ['reed'] }] as unknown as NamedPolicy['rules'];
    expect(() => new Acl([{ name: 'p', rules }])).toThrow('invalid capability "reed"');
  });

  it('no policy, or an empty one, grants nothing', () => {
    expect(granted(new Acl([]), 'a')).toEqual([]);
    expect(granted(aclOf(''), 'a')).toEqual([]);
  });
});

describe('Acl: root, capabilities() and authorizer()', () => {
  it('the root policy allows everything and reports ["root"]', () => {
    const acl = new Acl([{ name: 'root', rules: [] }, policy('other', 'path "x" { capabilities = ["deny"] }')]);
    expect(acl.isRoot).toBe(true);
    expect(granted(acl, 'x')).toEqual(ALL);
    expect(acl.capabilities('anything')).toEqual(['root']);
  });

  it('reports capabilities in Vault order, and deny for nothing or denied', () => {
    const acl = aclOf(
      'path "dev/*" { capabilities = ["patch", "create", "delete", "update", "list", "read", "sudo"] }\npath "no" { capabilities = ["deny"] }',
    );
    expect(acl.capabilities('dev/x')).toEqual(['sudo', 'read', 'list', 'update', 'delete', 'create', 'patch']);
    expect(acl.capabilities('no')).toEqual(['deny']);
    expect(acl.capabilities('elsewhere')).toEqual(['deny']);
  });

  it('authorizer() of the empty mount passes full paths through', () => {
    const authorize = aclOf('path "a/b" { capabilities = ["read"] }').authorizer('');
    expect(authorize({ capability: 'read', path: 'a/b' })).toBe(true);
    expect(authorize.many([{ capability: 'read', path: 'a/b' }])).toEqual([true]);
  });

  it('authorizer() prefixes the mount to the engine-relative path', () => {
    const acl = aclOf(
      'path "secret/data/app/*" { capabilities = ["read"] }\npath "secret/metadata/app" { capabilities = ["list"] }',
    );
    for (const mount of ['secret/', 'secret']) {
      const authorize = acl.authorizer(mount);
      expect(authorize({ capability: 'read', path: 'data/app/db' })).toBe(true);
      expect(authorize({ capability: 'update', path: 'data/app/db' })).toBe(false);
      expect(authorize({ capability: 'list', path: 'metadata/app/' })).toBe(true);
      expect(authorize({ capability: 'read', path: 'data/other' })).toBe(false);
    }
  });
});

describe('Acl: properties', () => {
  const segment = fc.constantFrom('a', 'b', 'c', 'ab', '+');
  const rulePath = fc
    .tuple(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.boolean())
    .map(([segments, glob]) => segments.join('/') + (glob ? '*' : ''))
    .filter((path) => !path.includes('+*'));
  const capabilities = fc.subarray(['deny', 'create', 'read', 'update', 'patch', 'delete', 'list', 'sudo'] as const);
  const rules = fc.array(fc.record({ path: rulePath, capabilities }), { maxLength: 6 });
  const requestPath = fc
    .tuple(fc.array(fc.constantFrom('a', 'b', 'c', 'ab', 'abc'), { minLength: 1, maxLength: 5 }), fc.boolean())
    .map(([segments, slash]) => segments.join('/') + (slash ? '/' : ''));

  it('the order of policies never changes a verdict', () => {
    fc.assert(
      fc.property(fc.array(rules, { minLength: 1, maxLength: 4 }), requestPath, (policies, path) => {
        const forward = new Acl(policies.map((r, i) => ({ name: `p${i}`, rules: r })));
        const backward = new Acl([...policies].reverse().map((r, i) => ({ name: `q${i}`, rules: r })));
        expect(forward.capabilities(path)).toEqual(backward.capabilities(path));
        for (const capability of ALL) expect(forward.allows(capability, path)).toBe(backward.allows(capability, path));
      }),
      { seed: 20_270_027 },
    );
  });

  it('an exact deny for a path in any policy denies every capability on it', () => {
    fc.assert(
      fc.property(fc.array(rules, { maxLength: 3 }), requestPath, (policies, path) => {
        const acl = new Acl([
          ...policies.map((r, i) => ({ name: `p${i}`, rules: r })),
          { name: 'd', rules: [{ path, capabilities: ['deny'] }] },
        ]);
        expect(granted(acl, path)).toEqual([]);
      }),
      { seed: 20_270_027 },
    );
  });

  it('with exact rules only, a verdict is the merge of the rules naming that very path', () => {
    const exactPath = fc
      .array(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 3 })
      .map((segments) => segments.join('/'));
    const exactRules = fc.array(fc.record({ path: exactPath, capabilities }), { maxLength: 8 });
    fc.assert(
      fc.property(fc.array(exactRules, { minLength: 1, maxLength: 3 }), exactPath, (policies, path) => {
        const acl = new Acl(policies.map((r, i) => ({ name: `p${i}`, rules: r })));
        const naming = policies.flat().filter((rule) => rule.path === path);
        const denied = naming.some((rule) => rule.capabilities.includes('deny'));
        for (const capability of ALL) {
          const expected =
            !denied && naming.some((rule) => (rule.capabilities as readonly string[]).includes(capability));
          expect(acl.allows(capability, path)).toBe(expected);
        }
      }),
      { seed: 20_270_027 },
    );
  });
});
