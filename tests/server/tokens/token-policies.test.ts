// Vault's policy rules for a new token (resolveTokenPolicies), branch by branch: no role, sudo or not; a role with
// allowed, disallowed and glob lists; `default` and `no_default_policy`; root.
import { describe, expect, it } from 'vitest';
import {
  globMatches,
  resolveTokenPolicies,
  type PolicyRequest,
  type RolePolicyRules,
} from '../../../src/server/tokens/token-policies.js';

const role = (rules: Partial<RolePolicyRules>): RolePolicyRules => ({
  allowed_policies: [],
  disallowed_policies: [],
  allowed_policies_glob: [],
  disallowed_policies_glob: [],
  token_no_default_policy: false,
  ...rules,
});
const resolve = (request: Partial<PolicyRequest>) =>
  resolveTokenPolicies({
    asked: undefined,
    noDefaultPolicy: false,
    parentPolicies: ['a', 'default'],
    sudo: false,
    ...request,
  });

describe('globMatches', () => {
  it.each([
    ['ops-*', 'ops-read', true],
    ['ops-*', 'ops-', true],
    ['*-write', 'ops-write', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'acb', false],
    ['a*a', 'a', false],
    ['*', '', true],
    ['plain', 'plain', true],
    ['plain', 'plains', false],
    ['o?s', 'ops', false],
  ])('%s against %s is %s', (pattern, value, expected) => {
    expect(globMatches(pattern, value)).toBe(expected);
  });
});

describe('without a role', () => {
  it('nothing asked: the parent’s policies, default only if the parent holds it', () => {
    expect(resolve({})).toEqual(['a', 'default']);
    expect(resolve({ parentPolicies: ['a'] })).toEqual(['a']);
  });

  it('asked without sudo: a subset of the parent’s, plus default when the parent holds it', () => {
    expect(resolve({ asked: ['A '] })).toEqual(['a', 'default']);
    expect(resolve({ asked: ['a'], parentPolicies: ['a'] })).toEqual(['a']);
    expect(() => resolve({ asked: ['b'] })).toThrow('child policies must be subset of parent');
    // Asking for default without holding it is not a subset either.
    expect(() => resolve({ asked: ['default'], parentPolicies: ['a'] })).toThrow('subset of parent');
  });

  it('asked with sudo: anything, plus default, never root unless the parent is root', () => {
    expect(resolve({ asked: ['b'], parentPolicies: ['a'], sudo: true })).toEqual(['b', 'default']);
    expect(() => resolve({ asked: ['root'], sudo: true })).toThrow(
      'root tokens may not be created without parent token being root',
    );
    expect(resolve({ asked: ['root', 'b'], parentPolicies: ['root'], sudo: true })).toEqual(['root']);
  });

  it('no_default_policy takes default out, even when asked for', () => {
    expect(resolve({ asked: ['a', 'default'], noDefaultPolicy: true })).toEqual(['a']);
    expect(resolve({ noDefaultPolicy: true })).toEqual(['a']);
  });
});

describe('with a role', () => {
  it('that restricts nothing: the rules without a role', () => {
    expect(() => resolve({ asked: ['b'], role: role({}) })).toThrow('child policies must be subset of parent');
    expect(resolve({ role: role({}) })).toEqual(['a', 'default']);
  });

  it('with allowed policies: those when nothing is asked, with default; a subset of them otherwise, held or not', () => {
    const ops = role({ allowed_policies: ['ops-read', 'ops-write'] });
    expect(resolve({ role: ops })).toEqual(['default', 'ops-read', 'ops-write']);
    expect(resolve({ role: ops, asked: ['ops-write'] })).toEqual(['default', 'ops-write']);
    expect(() => resolve({ role: ops, asked: ['a'] })).toThrow(
      'token policies (["a" "default"]) must be subset of the role\'s allowed policies (["default" "ops-read" "ops-write"]) or glob policies ([])',
    );
  });

  it('with allowed globs: any name a glob matches; nothing asked gives only the named ones (and default)', () => {
    const globbed = role({ allowed_policies_glob: ['ops-*'] });
    expect(resolve({ role: globbed, asked: ['ops-anything'] })).toEqual(['default', 'ops-anything']);
    // default is added before the check and is in no allowed list: Vault refuses it too.
    expect(() =>
      resolve({ role: role({ allowed_policies_glob: ['ops-*'], allowed_policies: ['x'] }), asked: ['y'] }),
    ).toThrow(/must be subset/);
    expect(resolve({ role: globbed })).toEqual(['default']);
  });

  it('with only disallowed lists: the parent’s policies or those asked, minus nothing disallowed', () => {
    const denying = role({ disallowed_policies: ['secret'], disallowed_policies_glob: ['*-write'] });
    expect(resolve({ role: denying, asked: ['b'] })).toEqual(['b', 'default']);
    expect(resolve({ role: denying })).toEqual(['a', 'default']);
    expect(() => resolve({ role: denying, asked: ['secret'] })).toThrow(
      'token policy "secret" is disallowed by this role',
    );
    expect(() => resolve({ role: denying, asked: ['ops-write'] })).toThrow('"ops-write" is disallowed');
    expect(() => resolve({ role: denying, parentPolicies: ['x-write'] })).toThrow('"x-write" is disallowed');
  });

  it('keeps default out when the role disallows it or sets token_no_default_policy, or the caller asks', () => {
    const allowed = { allowed_policies: ['ops-read'] };
    expect(resolve({ role: role({ ...allowed, disallowed_policies: ['default'] }) })).toEqual(['ops-read']);
    expect(resolve({ role: role({ ...allowed, disallowed_policies_glob: ['def*'] }) })).toEqual(['ops-read']);
    expect(resolve({ role: role({ ...allowed, token_no_default_policy: true }) })).toEqual(['ops-read']);
    expect(resolve({ role: role(allowed), noDefaultPolicy: true })).toEqual(['ops-read']);
    // Asking for default explicitly where it is disallowed is refused.
    expect(() => resolve({ role: role({ ...allowed, disallowed_policies: ['default'] }), asked: ['default'] })).toThrow(
      /must be subset/,
    );
  });

  it('never lets a token that is not root make root, whatever the role allows', () => {
    expect(() => resolve({ role: role({ allowed_policies: ['root'] }) })).toThrow('root tokens may not be created');
    expect(resolve({ role: role({ allowed_policies: ['root'] }), parentPolicies: ['root'] })).toEqual(['root']);
  });
});
