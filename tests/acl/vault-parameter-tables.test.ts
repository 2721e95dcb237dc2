// Vault's own tables for parameter constraints and wrapping bounds, rewritten as ours: the cases of
// TestACL_AllowOperation, TestACL_ValuePermissions and TestACL_PolicyMerge, and the policies they parse, as read in
// hashicorp/vault at commit 01c88db77d4c1060ae8d293006a8107d253481c1 (vault/acl_test.go). Each Vault case runs there
// as an update and as a create; so it does here.
import { describe, expect, it } from 'vitest';
import { Acl, parsePolicy, type RequiredCapability } from '../../src/acl/index.js';
import { mergeConstraints, type ParameterConstraints } from '../../src/acl/parameters.js';

const WRITES: RequiredCapability[] = ['update', 'create'];

function aclOf(text: string): Acl {
  return new Acl([{ name: 'p', rules: parsePolicy(text) }]);
}

describe('Vault TestACL_AllowOperation: parameter names and wrapping bounds', () => {
  const acl = aclOf(`
    name = "dev"
    path "dev/*"         { policy = "write"  allowed_parameters = { "zip" = [] } }
    path "foo/bar"       { policy = "write"  denied_parameters = { "zap" = [] }  min_wrapping_ttl = 300  max_wrapping_ttl = 400 }
    path "foo/baz"       { policy = "write"  allowed_parameters = { "hello" = [] }  denied_parameters = { "zap" = [] }  min_wrapping_ttl = 300 }
    path "working/phone" { policy = "write"  max_wrapping_ttl = 400 }
    path "broken/phone"  { policy = "write"  allowed_parameters = { "steve" = [] }  denied_parameters = { "steve" = [] } }
    path "hello/world"   { policy = "write"  allowed_parameters = { "*" = [] }  denied_parameters = { "*" = [] } }
    path "tree/fort"     { policy = "write"  allowed_parameters = { "*" = [] }  denied_parameters = { "foo" = [] } }
    path "fruit/apple"   { policy = "write"  allowed_parameters = { "pear" = [] }  denied_parameters = { "*" = [] } }
    path "cold/weather"  { policy = "write"  allowed_parameters = {}  denied_parameters = {} }
    path "var/aws"       { policy = "write"  allowed_parameters = { "*" = [] }  denied_parameters = { "soft" = [], "warm" = [], "kitty" = [] } }
    path "var/req"       { policy = "write"  required_parameters = ["foo"] }
  `);

  it.each<[string, number | undefined, string[], boolean]>([
    ['dev/ops', undefined, ['zip'], true],
    ['foo/bar', undefined, ['zap'], false],
    ['foo/bar', undefined, ['zip'], false],
    ['foo/bar', 50, ['zip'], false],
    ['foo/bar', 450, ['zip'], false],
    ['foo/bar', 350, ['zip'], true],
    ['foo/baz', undefined, ['hello'], false],
    ['foo/baz', 50, ['hello'], false],
    ['foo/baz', 450, ['hello'], true],
    ['foo/baz', undefined, ['zap'], false],
    ['broken/phone', undefined, ['steve'], false],
    ['working/phone', undefined, [''], false],
    ['working/phone', 450, [''], false],
    ['working/phone', 350, [''], true],
    ['hello/world', undefined, ['one'], false],
    ['tree/fort', undefined, ['one'], true],
    ['tree/fort', undefined, ['foo'], false],
    ['fruit/apple', undefined, ['pear'], false],
    ['fruit/apple', undefined, ['one'], false],
    ['cold/weather', undefined, ['four'], true],
    ['var/aws', undefined, ['cold', 'warm', 'kitty'], false],
    ['var/req', undefined, ['cold', 'warm', 'kitty'], false],
    ['var/req', undefined, ['cold', 'warm', 'kitty', 'foo'], true],
  ])('%s wrapped for %s s with %j: %s', (path, wrapTtl, names, allowed) => {
    const parameters = Object.fromEntries(names.map((name) => [name, '']));
    for (const capability of WRITES) {
      const request = { capability, path, parameters, ...(wrapTtl !== undefined ? { wrapTtl } : {}) };
      expect(acl.allowsRequest(request)).toBe(allowed);
    }
  });

  it('reports the bounds that apply to a path, for whoever wraps the response', () => {
    expect(acl.wrappingBounds('update', 'foo/bar')).toEqual({ min: 300, max: 400 });
    expect(acl.wrappingBounds('update', 'foo/baz')).toEqual({ min: 300 });
    expect(acl.wrappingBounds('read', 'working/phone')).toEqual({ max: 400 });
    expect(acl.wrappingBounds('update', 'dev/ops')).toEqual({});
    expect(acl.wrappingBounds('update', 'nowhere')).toEqual({});
  });
});

describe('Vault TestACL_ValuePermissions: parameter values, globs and types', () => {
  const acl = aclOf(`
    name = "op"
    path "dev/*"      { policy = "write"  allowed_parameters = { "allow" = ["good"] } }
    path "foo/bar"    { policy = "write"  denied_parameters = { "deny" = ["bad*"] } }
    path "foo/baz"    { policy = "write"  allowed_parameters = { "ALLOW" = ["good"] }  denied_parameters = { "dEny" = ["bad"] } }
    path "fizz/buzz"  {
      policy = "write"
      allowed_parameters = { "allow_multi" = ["good", "good1", "good2", "*good3"], "allow" = ["good"] }
      denied_parameters = { "deny_multi" = ["bad", "bad1", "bad2"] }
    }
    path "test/types" {
      policy = "write"
      allowed_parameters = { "map" = [{ "good" = "one" }], "int" = [1, 2], "bool" = [false] }
      denied_parameters = {}
    }
    path "test/star"  { policy = "write"  allowed_parameters = { "*" = [], "foo" = [], "bar" = [false] }  denied_parameters = {} }
  `);

  it.each<[string, string[], unknown[], boolean]>([
    ['dev/ops', ['allow'], ['good'], true],
    ['dev/ops', ['allow'], ['bad'], false],
    ['foo/bar', ['deny'], ['bad'], false],
    ['foo/bar', ['deny'], ['bad glob'], false],
    ['foo/bar', ['deny'], ['good'], true],
    ['foo/bar', ['allow'], ['good'], true],
    ['foo/bar', ['deny'], [null], true],
    ['foo/bar', ['allow'], [null], true],
    ['foo/baz', ['aLLow'], ['good'], true],
    ['foo/baz', ['deny'], ['bad'], false],
    ['foo/baz', ['deny'], ['good'], false],
    ['foo/baz', ['allow', 'deny'], ['good', 'bad'], false],
    ['foo/baz', ['deny', 'allow'], ['good', 'bad'], false],
    ['foo/baz', ['deNy', 'allow'], ['bad', 'good'], false],
    ['foo/baz', ['aLLow'], ['bad'], false],
    ['foo/baz', ['Neither'], ['bad'], false],
    ['foo/baz', ['allow'], [null], false],
    ['fizz/buzz', ['allow_multi'], ['good'], true],
    ['fizz/buzz', ['allow_multi'], ['good1'], true],
    ['fizz/buzz', ['allow_multi'], ['good2'], true],
    ['fizz/buzz', ['allow_multi'], ['glob good2'], false],
    ['fizz/buzz', ['allow_multi'], ['glob good3'], true],
    ['fizz/buzz', ['allow_multi'], ['bad'], false],
    ['fizz/buzz', ['allow_multi', 'allow'], ['good1', 'good'], true],
    ['fizz/buzz', ['deny_multi'], ['bad2'], false],
    ['fizz/buzz', ['deny_multi', 'allow_multi'], ['good', 'good2'], false],
    ['test/types', ['map'], [{ good: 'one' }], true],
    ['test/types', ['map'], [{ bad: 'one' }], false],
    ['test/types', ['int'], [1], true],
    ['test/types', ['int'], [3], false],
    ['test/types', ['bool'], [false], true],
    ['test/types', ['bool'], [true], false],
    ['test/star', ['anything'], [true], true],
    ['test/star', ['foo'], [true], true],
    ['test/star', ['bar'], [false], true],
    ['test/star', ['bar'], [true], false],
  ])('%s with %j = %j: %s', (path, names, values, allowed) => {
    const parameters = Object.fromEntries(names.map((name, i) => [name, values[i]]));
    for (const capability of WRITES) expect(acl.allowsRequest({ capability, path, parameters })).toBe(allowed);
  });
});

describe('Vault TestACL_PolicyMerge: two stanzas for one path', () => {
  const rules = parsePolicy(`
    name = "ops"
    path "foo/bar"        { policy = "write"  denied_parameters = { "baz" = [] }  required_parameters = ["baz"] }
    path "foo/bar"        { policy = "write"  denied_parameters = { "zip" = [] } }
    path "hello/universe" { policy = "write"  allowed_parameters = { "foo" = [] }  required_parameters = ["foo"]  max_wrapping_ttl = 300  min_wrapping_ttl = 100 }
    path "hello/universe" { policy = "write"  allowed_parameters = { "bar" = [] }  required_parameters = ["bar"]  max_wrapping_ttl = 200  min_wrapping_ttl = 50 }
    path "allow/all"      { policy = "write"  allowed_parameters = { "test" = [], "test1" = ["foo"] } }
    path "allow/all"      { policy = "write"  allowed_parameters = { "*" = [] } }
    path "allow/all1"     { policy = "write"  allowed_parameters = { "*" = [] } }
    path "allow/all1"     { policy = "write"  allowed_parameters = { "test" = [], "test1" = ["foo"] } }
    path "deny/all"       { policy = "write"  denied_parameters = { "test" = [] } }
    path "deny/all"       { policy = "write"  denied_parameters = { "*" = [] } }
    path "deny/all1"      { policy = "write"  denied_parameters = { "*" = [] } }
    path "deny/all1"      { policy = "write"  denied_parameters = { "test" = [] } }
    path "value/merge"    { policy = "write"  allowed_parameters = { "test" = [1, 2] }  denied_parameters = { "test" = [1, 2] } }
    path "value/merge"    { policy = "write"  allowed_parameters = { "test" = [3, 4] }  denied_parameters = { "test" = [3, 4] } }
    path "value/empty"    { policy = "write"  allowed_parameters = { "empty" = [] }  denied_parameters = { "empty" = [1] } }
    path "value/empty"    { policy = "write"  allowed_parameters = { "empty" = [1] }  denied_parameters = { "empty" = [] } }
  `);

  function merged(path: string): ParameterConstraints | undefined {
    let result: ParameterConstraints | undefined;
    for (const { path: rulePath, capabilities: _, ...constraints } of rules) {
      if (rulePath === path) result = mergeConstraints(result, constraints);
    }
    return result;
  }

  const values = (entries: Record<string, unknown[]>) => new Map(Object.entries(entries));

  it.each<[string, ParameterConstraints]>([
    ['foo/bar', { deniedParameters: values({ baz: [], zip: [] }), requiredParameters: ['baz'] }],
    [
      'hello/universe',
      {
        allowedParameters: values({ foo: [], bar: [] }),
        requiredParameters: ['foo', 'bar'],
        minWrappingTtl: 50,
        maxWrappingTtl: 200,
      },
    ],
    ['allow/all', { allowedParameters: values({ '*': [], test: [], test1: ['foo'] }) }],
    ['allow/all1', { allowedParameters: values({ '*': [], test: [], test1: ['foo'] }) }],
    ['deny/all', { deniedParameters: values({ '*': [], test: [] }) }],
    ['deny/all1', { deniedParameters: values({ '*': [], test: [] }) }],
    [
      'value/merge',
      { allowedParameters: values({ test: [3, 4, 1, 2] }), deniedParameters: values({ test: [3, 4, 1, 2] }) },
    ],
    ['value/empty', { allowedParameters: values({ empty: [] }), deniedParameters: values({ empty: [] }) }],
  ])('%s merges as in Vault', (path, expected) => {
    const result = merged(path)!;
    expect(result).toEqual(expected);
    // Vault compares each list in order: the later stanza's values come first.
    expect([...(result.allowedParameters?.get('test') ?? [])]).toEqual(expected.allowedParameters?.get('test') ?? []);
  });

  it('an Acl built from the policy judges by the merged constraints', () => {
    const acl = new Acl([{ name: 'ops', rules }]);
    expect(acl.wrappingBounds('update', 'hello/universe')).toEqual({ min: 50, max: 200 });
    const universe = { capability: 'update' as const, path: 'hello/universe', wrapTtl: 100 };
    expect(acl.allowsRequest({ ...universe, parameters: { foo: 'x', bar: 'y' } })).toBe(true);
    expect(acl.allowsRequest({ ...universe, parameters: { foo: 'x' } })).toBe(false);
    expect(acl.allowsRequest({ ...universe, parameters: { foo: 'x', bar: 'y' }, wrapTtl: 250 })).toBe(false);
    expect(acl.allowsRequest({ capability: 'update', path: 'foo/bar', parameters: { baz: 1 } })).toBe(false);
    expect(acl.allowsRequest({ capability: 'update', path: 'foo/bar', parameters: { zip: 1, baz: 1 } })).toBe(false);
    expect(acl.allowsRequest({ capability: 'update', path: 'value/merge', parameters: { test: 3 } })).toBe(false);
  });

  it('merges across policies as within one', () => {
    const first = { name: 'a', rules: parsePolicy('path "x" { capabilities = ["update"] max_wrapping_ttl = "5m" }') };
    const second = { name: 'b', rules: parsePolicy('path "x" { capabilities = ["read"] min_wrapping_ttl = "10m" }') };
    const acl = new Acl([first, second]);
    // The bounds crossed in the merge: Vault then refuses every request on the path.
    expect(acl.wrappingBounds('update', 'x')).toEqual({ min: 600, max: 300 });
    expect(acl.allowsRequest({ capability: 'update', path: 'x', wrapTtl: 300 })).toBe(false);
    expect(acl.allowsRequest({ capability: 'update', path: 'x', wrapTtl: 600 })).toBe(false);
  });
});
