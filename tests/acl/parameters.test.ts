import { describe, expect, it } from 'vitest';
import { Acl, parsePolicy } from '../../src/acl/index.js';

describe('parsePolicy: parameter constraints and wrapping bounds', () => {
  it('reads them from JSON as from HCL, keys lowercased, values typed', () => {
    const json = parsePolicy(
      JSON.stringify({
        path: {
          'a/*': {
            capabilities: ['update'],
            allowed_parameters: { Colour: ['red', 2, true, null, { x: [1] }] },
            denied_parameters: { '*': [] },
            required_parameters: ['Colour'],
            min_wrapping_ttl: '1m',
            max_wrapping_ttl: 3600,
          },
        },
      }),
    );
    const hcl = parsePolicy(`path "a/*" {
      capabilities = ["update"]
      allowed_parameters = { "Colour" = ["red", 2, true] }
    }`);
    expect(json).toEqual([
      {
        path: 'a/*',
        capabilities: ['update'],
        allowedParameters: new Map([['colour', ['red', 2, true, null, { x: [1] }]]]),
        deniedParameters: new Map([['*', []]]),
        requiredParameters: ['Colour'],
        minWrappingTtl: 60,
        maxWrappingTtl: 3600,
      },
    ]);
    expect(hcl[0]!.allowedParameters).toEqual(new Map([['colour', ['red', 2, true]]]));
  });

  it('sets no bound for a zero TTL and nothing for an empty required list', () => {
    expect(parsePolicy('path "a" { capabilities = ["read"] min_wrapping_ttl = 0 required_parameters = [] }')).toEqual([
      { path: 'a', capabilities: ['read'] },
    ]);
  });

  it.each([
    ['allowed_parameters = ["x"]', 'path "a": allowed_parameters must map parameters to lists'],
    ['denied_parameters = { "x" = "y" }', 'path "a": denied_parameters: "x" must be a list of values'],
    ['required_parameters = "x"', 'path "a": required_parameters must be a list of strings'],
    ['max_wrapping_ttl = true', 'path "a": max_wrapping_ttl must be a duration'],
    ['max_wrapping_ttl = "-5s"', 'path "a": max_wrapping_ttl must not be negative'],
    [
      'min_wrapping_ttl = "2h" \n max_wrapping_ttl = "1h"',
      'path "a": max_wrapping_ttl cannot be less than min_wrapping_ttl',
    ],
  ])('refuses %s', (setting, message) => {
    expect(() => parsePolicy(`path "a" {\n capabilities = ["read"]\n ${setting}\n}`)).toThrow(
      `failed to parse policy: ${message}`,
    );
  });
});

describe('Acl: which checks weigh parameters', () => {
  const acl = new Acl([
    {
      name: 'p',
      rules: parsePolicy(`
        path "kv/*"       { capabilities = ["create", "read", "update", "patch", "delete", "list"]
                            allowed_parameters = { "ttl" = ["1h", "2h"] }  required_parameters = ["ttl"] }
        path "kv/open/*"  { capabilities = ["read", "update"] }
      `),
    },
  ]);

  it('checks read, create, update and patch; never list or delete (as Vault)', () => {
    const parameters = { colour: 'red' };
    for (const capability of ['read', 'create', 'update', 'patch'] as const) {
      expect(acl.allowsRequest({ capability, path: 'kv/a', parameters })).toBe(false);
      expect(acl.allowsRequest({ capability, path: 'kv/a', parameters: { ttl: '2h' } })).toBe(true);
    }
    for (const capability of ['delete', 'list'] as const) {
      expect(acl.allowsRequest({ capability, path: 'kv/a/', parameters })).toBe(true);
    }
    // The rule that decides the path is the one whose constraints apply: "kv/open/*" has none.
    expect(acl.allowsRequest({ capability: 'update', path: 'kv/open/x', parameters })).toBe(true);
    // No capability, no grant, whatever the parameters.
    expect(acl.allowsRequest({ capability: 'sudo', path: 'kv/a', parameters: { ttl: '1h' } })).toBe(false);
  });

  it("applies them only to the request's own path through an engine's authorizer", async () => {
    const authorize = acl.authorizer('kv/', { path: 'kv/a', parameters: { colour: 'red' } });
    expect(await authorize({ capability: 'update', path: 'a' })).toBe(false);
    // Another path of the same request (a move's source, a listing's name) is judged by capabilities alone.
    expect(await authorize({ capability: 'read', path: 'b' })).toBe(true);
    expect(await authorize({ capability: 'list', path: 'a', listing: true })).toBe(true);
    expect(
      await authorize.many([
        { capability: 'read', path: 'b' },
        { capability: 'update', path: 'a' },
      ]),
    ).toEqual([true, false]);
    // A LIST's own folder, asked with the '/' the request's path may lack, meets its rule's wrapping bound.
    const wrapped = new Acl([
      { name: 'w', rules: parsePolicy('path "kv/dir/" { capabilities = ["list"] max_wrapping_ttl = 60 }') },
    ]);
    expect(await wrapped.authorizer('kv/', { path: 'kv/dir' })({ capability: 'list', path: 'dir/' })).toBe(false);
    expect(await wrapped.authorizer('kv/', { path: 'kv/dir', wrapTtl: 30 })({ capability: 'list', path: 'dir/' })).toBe(
      true,
    );
    const plain = acl.authorizer('kv/');
    expect(await plain({ capability: 'update', path: 'a' })).toBe(true);
  });

  it('lets the root policy through, constraints or not', () => {
    const root = new Acl([{ name: 'root', rules: [] }]);
    expect(root.allowsRequest({ capability: 'update', path: 'x', parameters: { a: 1 } })).toBe(true);
    expect(root.wrappingBounds('update', 'x')).toEqual({});
  });
});
