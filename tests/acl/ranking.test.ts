// Ties in Vault's ranking of wildcard rules, decided deterministically, and the bulk path on an exact deny below a glob.
import { describe, expect, it } from 'vitest';
import { Acl, parsePolicy, type RequiredCapability } from '../../src/acl/index.js';

const ALL: RequiredCapability[] = ['create', 'read', 'update', 'patch', 'delete', 'list', 'sudo'];

function granted(rules: ReadonlyArray<readonly [string, string]>, path: string): RequiredCapability[] {
  // Every rule in its own policy, in both orders: the verdict must not depend on which policy came first.
  const policies = rules.map(([rule, capability], i) => ({
    name: `p${i}`,
    rules: parsePolicy(`path "${rule}" { capabilities = ["${capability}"] }`),
  }));
  const forward = new Acl(policies);
  const backward = new Acl([...policies].reverse());
  const verdicts = ALL.filter((capability) => forward.allows(capability, path));
  expect(ALL.filter((capability) => backward.allows(capability, path))).toEqual(verdicts);
  expect(forward.allowsMany(ALL.map((capability) => ({ capability, path })))).toEqual(
    ALL.map((capability) => verdicts.includes(capability)),
  );
  return verdicts;
}

describe('ranking ties', () => {
  it.each([
    // Two "+" rules of equal rank (first wildcard, prefix or not, number of "+", length): the path sorting last wins.
    [
      [
        ['+/+/y', 'update'],
        ['+/x/+', 'read'],
      ],
      'q/x/y',
      ['read'],
    ],
    [
      [
        ['+/+/y/*', 'update'],
        ['+/x/+/*', 'read'],
      ],
      'q/x/y/z',
      ['read'],
    ],
    [
      [
        ['a/+/+/c', 'update'],
        ['a/+/b/+', 'read'],
      ],
      'a/z/b/c',
      ['read'],
    ],
    // "*" and "+" at the same position: the segment rule is not a prefix, so it wins...
    [
      [
        ['a/*', 'update'],
        ['a/+', 'read'],
      ],
      'a/b',
      ['read'],
    ],
    // ...but against another prefix rule, fewer "+" wins: "a/*" over "a/+/*".
    [
      [
        ['a/+/*', 'update'],
        ['a/*', 'read'],
      ],
      'a/b/c',
      ['read'],
    ],
    [
      [
        ['a/+/c*', 'update'],
        ['a/*', 'read'],
      ],
      'a/b/cd',
      ['read'],
    ],
    // A later first wildcard beats everything else: "a/b*" (glob at 3) over "a/+" (at 2).
    [
      [
        ['a/+', 'update'],
        ['a/b*', 'read'],
      ],
      'a/bc',
      ['read'],
    ],
    // Fewer "+" wins before length: "a/+/y/z/+" (two) over the longer "a/+/+/+/wwww" (three).
    [
      [
        ['a/+/+/+/wwww', 'update'],
        ['a/+/y/z/+', 'read'],
      ],
      'a/x/y/z/wwww',
      ['read'],
    ],
    // Length decides before the order of the paths: "a/+/+/d/e/f*" over "a/+/c/+/e*", which sorts after it.
    [
      [
        ['a/+/c/+/e*', 'read'],
        ['a/+/+/d/e/f*', 'update'],
      ],
      'a/x/c/d/e/f',
      ['update'],
    ],
    // Equal first wildcard, both prefixes, both one "+": the longer literal wins.
    [
      [
        ['a/+/b*', 'update'],
        ['a/+/bc*', 'read'],
      ],
      'a/x/bcd',
      ['read'],
    ],
    // Equal literal lengths of a prefix glob and a segment rule: the glob's position (its end) comes later.
    [
      [
        ['a/+/', 'update'],
        ['a/bc*', 'read'],
      ],
      'a/bc/',
      ['read'],
    ],
  ] as const)('%j on %s → %j', (rules, path, expected) => {
    expect(granted(rules, path)).toEqual(expected);
  });

  it('the same path in a prefix glob and an exact rule: the exact rule, whatever the lengths', () => {
    expect(
      granted(
        [
          ['a/b*', 'update'],
          ['a/b', 'read'],
        ],
        'a/b',
      ),
    ).toEqual(['read']);
    expect(
      granted(
        [
          ['a/b*', 'update'],
          ['a/b', 'read'],
        ],
        'a/bc',
      ),
    ).toEqual(['update']);
  });
});

describe('allowsMany', () => {
  const acl = new Acl([
    {
      name: 'p',
      rules: parsePolicy('path "s/*" { capabilities = ["read"] }\npath "s/y" { capabilities = ["read", "update"] }'),
    },
    { name: 'q', rules: parsePolicy('path "s/x" { capabilities = ["deny"] }') },
  ]);

  it('an exact deny under a glob holds for its one path only, in any batch order', () => {
    const checks = [
      { capability: 'read' as const, path: 's/x' },
      { capability: 'read' as const, path: 's/y' },
      { capability: 'update' as const, path: 's/y' },
      { capability: 'read' as const, path: 's/z' },
      { capability: 'update' as const, path: 's/z' },
      { capability: 'read' as const, path: 's/x/' },
    ];
    const expected = [false, true, true, true, false, true];
    expect(acl.allowsMany(checks)).toEqual(expected);
    expect(acl.allowsMany([...checks].reverse())).toEqual([...expected].reverse());
    expect(checks.map(({ capability, path }) => acl.allows(capability, path))).toEqual(expected);
  });

  it('a single "+" rule decides the names of the root folder', () => {
    const plus = new Acl([{ name: 'p', rules: parsePolicy('path "+" { capabilities = ["read"] }') }]);
    expect(
      plus.allowsMany([
        { capability: 'read', path: 'a' },
        { capability: 'read', path: 'a/b' },
      ]),
    ).toEqual([true, false]);
  });

  it('a prefix glob that extends the folder decides only the names it covers', () => {
    const glob = new Acl([
      {
        name: 'p',
        rules: parsePolicy('path "s/*" { capabilities = ["read"] }\npath "s/ab*" { capabilities = ["deny"] }'),
      },
    ]);
    const paths = ['s/a', 's/ab', 's/abc', 's/b'];
    expect(glob.allowsMany(paths.map((path) => ({ capability: 'read', path })))).toEqual([true, false, false, true]);
  });

  it('hand-built rules may start with a slash, as parsed ones may', () => {
    const slashed = new Acl([{ name: 'p', rules: [{ path: '/s/x', capabilities: ['read'] }] }]);
    expect(slashed.allows('read', 's/x')).toBe(true);
    expect(slashed.allowsMany([{ capability: 'read', path: 's/x' }])).toEqual([true]);
  });
});
