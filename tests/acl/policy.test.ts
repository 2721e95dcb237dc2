import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  Acl,
  DEFAULT_POLICY,
  parsePolicy,
  sanitizePolicyNames,
  tokenPolicies,
  type PathRule,
} from '../../src/acl/index.js';
import { InvalidRequest } from '../../src/lib/errors.js';

describe('parsePolicy: JSON form', () => {
  it('reads the form Vault documents', () => {
    expect(parsePolicy('{"path": {"secret/data/*": {"capabilities": ["read"]}}}')).toEqual([
      { path: 'secret/data/*', capabilities: ['read'] },
    ]);
  });

  it('accepts a list of path objects, a name, a comment, and a leading slash', () => {
    const text = JSON.stringify({
      name: 'ops',
      path: [{ 'a/*': { capabilities: ['read', 'list'], comment: 'why' } }, { '/b': { policy: 'write' } }],
    });
    expect(parsePolicy(text)).toEqual([
      { path: 'a/*', capabilities: ['read', 'list'] },
      { path: 'b', capabilities: ['create', 'read', 'update', 'delete', 'list'] },
    ]);
  });

  it.each([
    ['{"path": ', /invalid JSON/],
    ['{"paths": {}}', /invalid key "paths"/],
    ['{"name": 1, "path": {}}', /"name" must be a string/],
    ['{"path": {"a": ["read"]}}', /path "a": expected an object/],
    ['{"path": "a"}', /"path" must map paths to objects/],
    ['{"path": {"a": {"capabilities": "read"}}}', /capabilities must be a list of strings/],
    ['{"path": {"a": {"capabilities": ["reed"]}}}', /invalid capability "reed"/],
    ['{"path": {"a": {"policy": "admin"}}}', /invalid policy "admin"/],
    ['{"path": {"a": {"capabilities": ["read"], "mfa_methods": ["totp"]}}}', /mfa_methods is not supported/],
    ['{"path": {"a": {"capabilities": ["read"], "colour": "red"}}}', /invalid key "colour"/],
    ['{"path": {"a/{{identity.entity.id}}": {"capabilities": ["read"]}}}', /templated policy paths are not supported/],
  ])('refuses %s', (text, message) => {
    expect(() => parsePolicy(text)).toThrow(InvalidRequest);
    expect(() => parsePolicy(text)).toThrow(message);
  });
});

describe('parsePolicy: HCL form', () => {
  it('reads blocks, comments of every style, a name and trailing commas', () => {
    const text = `
      # hash comment
      name = "ops"
      // slash comment
      path "secret/data/*" {
        capabilities = ["read", "list",] /* inline */
      }
      /* a
         block comment */
      path "secret/metadata/+/x" { capabilities = ["list"], comment = "folders" }
    `;
    expect(parsePolicy(text)).toEqual([
      { path: 'secret/data/*', capabilities: ['read', 'list'] },
      { path: 'secret/metadata/+/x', capabilities: ['list'] },
    ]);
  });

  it('combines the legacy policy shorthand with capabilities, and deny drops the rest', () => {
    expect(parsePolicy('path "a" { policy = "read"\n capabilities = ["update", "sudo"] }')).toEqual([
      { path: 'a', capabilities: ['read', 'list', 'update', 'sudo'] },
    ]);
    expect(parsePolicy('path "a" { policy = "deny"\n capabilities = ["read"] }')).toEqual([
      { path: 'a', capabilities: ['deny'] },
    ]);
    expect(parsePolicy('path "a" { capabilities = ["read", "deny", "read"] }')).toEqual([
      { path: 'a', capabilities: ['deny'] },
    ]);
  });

  it('decodes escapes in strings', () => {
    expect(parsePolicy('path "a/\\"q\\"/\\u0062" { capabilities = ["read"] }')).toEqual([
      { path: 'a/"q"/b', capabilities: ['read'] },
    ]);
  });

  it('a stanza with no capabilities grants nothing', () => {
    const rules = parsePolicy('path "a" {}');
    expect(rules).toEqual([{ path: 'a', capabilities: [] }]);
    expect(new Acl([{ name: 'p', rules }]).capabilities('a')).toEqual(['deny']);
  });

  it.each([
    ['name{}', /expected name = "<name>"/],
    ['name = 3', /expected name = "<name>"/],
    ['["path"]', /expected a key, found "\["/],
    ['path "a" { capabilities = ["read"]', /line 1: expected a key, found end of input/],
    ['path "a" {\n  capabilities = ["read"\n}', /line 3: expected "," or "]"/],
    ['path "a"\n{ capabilities = ["x"] }', /invalid capability "x"/],
    ['path "a" = "b"', /expected "\{" or "="/],
    ['path "a" "b" { }', /expected path "<path>"/],
    ['paths "a" { }', /invalid key "paths"/],
    ['path "a" { capabilities = ["read"] \n min_wrapping_ttl = "3x" }', /invalid min_wrapping_ttl "3x"/],
    ['path "a" { capabilities = <<EOT\nread\nEOT\n }', /heredoc strings are not supported/],
    ['path "unterminated { }', /unterminated string/],
    ['path "a" { capabilities = ["read"] } /* open', /unterminated comment/],
    ['path "a" { capabilities = ["read"] } ;', /unexpected character ";"/],
    ['path "a" { capabilities = "read" }', /capabilities must be a list of strings/],
    ['path "a" { capabilities = [1] }', /capabilities must be a list of strings/],
    ['path "a" { capabilities = {} }', /capabilities must be a list of strings/],
    ['path "a" { policy = true }', /invalid policy true/],
    ['path "a+*" { capabilities = ["read"] }', /'\+\*' is forbidden/],
    [`path "a" { x = ${'['.repeat(100)} }`, /nesting too deep/],
  ])('refuses %j', (text, message) => {
    expect(() => parsePolicy(text)).toThrow(InvalidRequest);
    expect(() => parsePolicy(text)).toThrow(message);
  });

  it('never fails with anything but InvalidRequest, whatever the input', () => {
    const hclish = fc
      .array(
        fc.constantFrom(
          'path',
          '"a/*"',
          '{',
          '}',
          '[',
          ']',
          '=',
          ',',
          'capabilities',
          '"read"',
          '#',
          '\n',
          '/*',
          '*/',
          '"',
          '1',
          'true',
          ' ',
        ),
        { maxLength: 30 },
      )
      .map((parts) => parts.join(' '));
    fc.assert(
      fc.property(fc.oneof(fc.string(), hclish, fc.json()), (text) => {
        try {
          expect(Array.isArray(parsePolicy(text))).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidRequest);
        }
      }),
      { seed: 20_270_027 },
    );
  });
});

describe('parsePolicy: both forms agree', () => {
  const path = fc.stringMatching(/^[a-z+][a-z0-9_/.+-]{0,20}\*?$/).filter((p) => !p.includes('+*'));
  const rule = fc.record({
    path,
    capabilities: fc.subarray(['create', 'read', 'update', 'patch', 'delete', 'list', 'sudo'] as const),
  });

  function asHcl(rules: PathRule[]): string {
    return rules
      .map((r) => `path ${JSON.stringify(r.path)} {\n  capabilities = ${JSON.stringify(r.capabilities)}\n}`)
      .join('\n');
  }

  function asJson(rules: PathRule[]): string {
    return JSON.stringify({ path: rules.map((r) => ({ [r.path]: { capabilities: r.capabilities } })) });
  }

  it('an HCL policy and its JSON twin parse to the same rules', () => {
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 6 }), (rules) => {
        expect(parsePolicy(asHcl(rules))).toEqual(parsePolicy(asJson(rules)));
        expect(parsePolicy(asHcl(rules))).toEqual(rules);
      }),
      { seed: 20_270_027 },
    );
  });
});

describe('parsePolicy: what a stanza may hold', () => {
  // Each of these narrows or conditions a grant in Vault; ignoring one would grant more than its author meant.
  it.each(['mfa_methods = ["totp"]', 'control_group = { ttl = "4h" }', 'subscribe_event_types = ["kv*"]'])(
    'refuses %s as not supported',
    (setting) => {
      const key = setting.slice(0, setting.indexOf(' '));
      expect(() => parsePolicy(`path "a" {\n capabilities = ["read"]\n ${setting}\n}`)).toThrow(
        `failed to parse policy: path "a": ${key} is not supported`,
      );
    },
  );

  it.each([
    ['path "a" { policy = ["read"] }', 'path "a": invalid policy ["read"]'],
    ['path "a" { comment = 1 }', 'path "a": comment must be a string'],
    ['{"path": {"a": {"comment": null}}}', 'path "a": comment must be a string'],
  ])('refuses %j', (text, message) => {
    expect(() => parsePolicy(text)).toThrow(`failed to parse policy: ${message}`);
  });

  it('refuses a policy that is not text', () => {
    expect(() => parsePolicy(42 as unknown as string)).toThrow(
      new InvalidRequest('failed to parse policy: the policy must be a string'),
    );
  });

  it('reads the JSON form after leading white space', () => {
    expect(parsePolicy('\n  {"path": {"a": {"capabilities": ["read"]}}}\n')).toEqual([
      { path: 'a', capabilities: ['read'] },
    ]);
  });
});

describe('built-in policies and names', () => {
  it('the default policy lets a token look itself up, renew and revoke itself, wrap and unwrap, and nothing else', () => {
    const acl = new Acl([{ name: 'default', rules: parsePolicy(DEFAULT_POLICY) }]);
    expect(acl.allows('read', 'auth/token/lookup-self')).toBe(true);
    expect(acl.allows('update', 'auth/token/renew-self')).toBe(true);
    expect(acl.allows('update', 'auth/token/revoke-self')).toBe(true);
    expect(acl.allows('update', 'sys/capabilities-self')).toBe(true);
    for (const path of ['sys/wrapping/wrap', 'sys/wrapping/lookup', 'sys/wrapping/unwrap'])
      expect(acl.allows('update', path)).toBe(true);
    expect(acl.allows('update', 'sys/wrapping/rewrap')).toBe(false);
    expect(acl.allows('read', 'secret/data/x')).toBe(false);
    expect(acl.allows('update', 'sys/policies/acl/default')).toBe(false);
  });

  it('sanitizes policy names as Vault stores them', () => {
    expect(sanitizePolicyNames([' Web ', 'db', 'web', '', 'DB'])).toEqual(['db', 'web']);
  });

  it('adds default to a grant unless no_default_policy', () => {
    expect(tokenPolicies({ policies: ['web', 'Admin'] })).toEqual(['admin', 'default', 'web']);
    expect(tokenPolicies({ policies: ['web', 'default'], no_default_policy: false })).toEqual(['default', 'web']);
    expect(tokenPolicies({ policies: ['web'], no_default_policy: true })).toEqual(['web']);
    expect(tokenPolicies({ policies: [], no_default_policy: true })).toEqual([]);
  });
});
