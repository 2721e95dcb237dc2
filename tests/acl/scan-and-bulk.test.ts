import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Acl } from '../../src/acl/acl.js';
import { parsePolicy } from '../../src/acl/policy.js';
import type { RequiredCapability } from '../../src/acl/capability.js';

const aclOf = (...texts: string[]) => new Acl(texts.map((text, i) => ({ name: `p${i}`, rules: parsePolicy(text) })));

describe('Acl: the scan capability', () => {
  it('a policy that never names scan grants it wherever it grants list', () => {
    const acl = aclOf(
      'path "secret/metadata/*" { capabilities = ["list"] }\npath "secret/data/*" { capabilities = ["read"] }',
    );
    expect(acl.allows('scan', 'secret/metadata/team/')).toBe(true);
    expect(acl.allows('scan', 'secret/data/x')).toBe(false);
    // What a policy states is what sys/capabilities reports: the implied scan is not listed.
    expect(acl.capabilities('secret/metadata/team/')).toEqual(['list']);
  });

  it('a policy that names scan anywhere grants it only where it says so', () => {
    const acl = aclOf(
      'path "secret/metadata/*" { capabilities = ["list"] }\npath "secret/metadata/open/*" { capabilities = ["list", "scan"] }',
    );
    expect(acl.allows('scan', 'secret/metadata/team/')).toBe(false);
    expect(acl.allows('scan', 'secret/metadata/open/x/')).toBe(true);
    expect(acl.capabilities('secret/metadata/open/x/')).toEqual(['list', 'scan']);
  });

  it('the fallback is per policy, and a deny still wins', () => {
    const legacy = 'path "secret/metadata/*" { capabilities = ["list"] }';
    const modern = 'path "other/*" { capabilities = ["scan"] }';
    expect(aclOf(legacy, modern).allows('scan', 'secret/metadata/a/')).toBe(true);
    const denied = aclOf(legacy, 'path "secret/metadata/a/" { capabilities = ["deny"] }');
    expect(denied.allows('scan', 'secret/metadata/a/')).toBe(false);
  });

  it('a SCAN of "foo/" is matched like a LIST: "foo" rules and globs apply', () => {
    const acl = aclOf('path "secret/metadata/team" { capabilities = ["scan"] }');
    expect(acl.allows('scan', 'secret/metadata/team/')).toBe(true);
    expect(acl.allows('list', 'secret/metadata/team/')).toBe(false);
  });
});

describe('Acl.allowsMany: bulk checks give exactly the single verdicts', () => {
  const segment = fc.constantFrom('a', 'b', 'ab', 'team', '+');
  const rulePath = fc
    .tuple(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.boolean())
    .map(([segments, glob]) => segments.join('/') + (glob ? '*' : ''))
    .filter((path) => !path.includes('+*'));
  const capabilities = fc.subarray(['read', 'list', 'update', 'deny', 'scan'] as const, { minLength: 1 });
  const policy = fc.array(fc.record({ path: rulePath, capabilities }), { maxLength: 12 });
  const requestPath = fc
    .array(fc.constantFrom('a', 'b', 'ab', 'team', 'x'), { minLength: 1, maxLength: 5 })
    .map((s) => s.join('/'));
  const capability = fc.constantFrom<RequiredCapability>('read', 'list', 'update', 'scan');

  it('for any policies and any batch of checks', () => {
    fc.assert(
      fc.property(
        fc.array(policy, { minLength: 1, maxLength: 3 }),
        fc.array(fc.record({ capability, path: requestPath }), { maxLength: 30 }),
        (policies, checks) => {
          const acl = new Acl(
            policies.map((rules, i) => ({
              name: `p${i}`,
              rules: rules.map((rule) => ({ path: rule.path, capabilities: [...rule.capabilities] })),
            })),
          );
          expect(acl.allowsMany(checks)).toEqual(checks.map((check) => acl.allows(check.capability, check.path)));
        },
      ),
      { seed: 20_270_027, numRuns: 400 },
    );
  });

  it('a name JavaScript gives a meaning of its own (undefined, __proto__, constructor) is judged as plain text', () => {
    const acl = aclOf('path "a/*" { capabilities = ["read"] }\npath "a/__proto__" { capabilities = ["deny"] }');
    const names = ['undefined', '__proto__', 'constructor', 'toString'];
    const checks = names.map((name) => ({ capability: 'read' as const, path: `a/${name}` }));
    expect(acl.allowsMany(checks)).toEqual([true, false, true, true]);
    expect(checks.map((check) => acl.allows(check.capability, check.path))).toEqual([true, false, true, true]);
  });

  it('the authorizer offers the same as `many`, with the mount prefix applied', () => {
    const acl = aclOf('path "secret/data/team/a*" { capabilities = ["read"] }');
    const authorize = acl.authorizer('secret');
    const checks = [
      { capability: 'read' as const, path: 'data/team/ab' },
      { capability: 'read' as const, path: 'data/team/b' },
    ];
    expect(authorize.many(checks)).toEqual([true, false]);
    expect(checks.map((check) => authorize(check))).toEqual([true, false]);
  });
});
