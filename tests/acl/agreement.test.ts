// The three ways of asking the Acl must never disagree: `allowsMany` answers exactly what `allows` answers for each
// check, and `capabilities` reports exactly the capabilities `allows` grants (scan only where a policy states it).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Acl, type NamedPolicy, type PolicyCapability, type RequiredCapability } from '../../src/acl/index.js';

const REQUIRED: RequiredCapability[] = ['create', 'read', 'update', 'patch', 'delete', 'list', 'sudo', 'scan'];
const PLAIN = REQUIRED.filter((capability) => capability !== 'scan');

const segment = fc.constantFrom('a', 'b', 'ab', 'team', '+', '');
const rulePath = fc
  .tuple(fc.boolean(), fc.array(segment, { minLength: 1, maxLength: 4 }), fc.constantFrom('', '*', '/', '/*'))
  .map(([slash, segments, tail]) => (slash ? '/' : '') + segments.join('/') + tail)
  .filter((path) => !path.includes('+*'));
const capabilities = fc.subarray(['deny', ...REQUIRED] as PolicyCapability[]);
const rules = fc.array(fc.record({ path: rulePath, capabilities }), { maxLength: 8 });
const policies = fc.array(rules, { minLength: 1, maxLength: 3 }).map((list) => list.map((r, i): NamedPolicy => ({ name: `p${i}`, rules: r })));
const requestPath = fc
  .tuple(fc.array(fc.constantFrom('a', 'b', 'ab', 'abc', 'team', 'x', ''), { minLength: 1, maxLength: 5 }), fc.boolean())
  .map(([segments, slash]) => segments.join('/') + (slash ? '/' : ''));
const check = fc.record({ capability: fc.constantFrom(...REQUIRED), path: requestPath });

describe('Acl: allows, allowsMany and capabilities agree', () => {
  it('allowsMany(checks) equals checks.map(allows), for any policies and batch', () => {
    fc.assert(
      fc.property(policies, fc.array(check, { maxLength: 40 }), (list, checks) => {
        const acl = new Acl(list);
        expect(acl.allowsMany(checks)).toEqual(checks.map(({ capability, path }) => acl.allows(capability, path)));
      }),
      { seed: 20_270_027, numRuns: 500 },
    );
  });

  it('capabilities(path) reports each capability exactly when allows grants it', () => {
    fc.assert(
      fc.property(policies, requestPath, (list, path) => {
        const acl = new Acl(list);
        const reported = acl.capabilities(path) as string[];
        for (const capability of PLAIN) expect([capability, reported.includes(capability)]).toEqual([capability, acl.allows(capability, path)]);
        // A stated scan is reported; one implied by list is granted but not reported.
        if (reported.includes('scan')) expect(acl.allows('scan', path)).toBe(true);
        if (acl.allows('scan', path)) expect(reported.includes('scan') || reported.includes('list')).toBe(true);
        expect(reported.includes('deny')).toBe(!REQUIRED.some((capability) => reported.includes(capability)));
      }),
      { seed: 20_270_027, numRuns: 500 },
    );
  });

  it('with the root policy among them, everything is allowed and capabilities says root', () => {
    fc.assert(
      fc.property(policies, fc.array(check, { maxLength: 10 }), (list, checks) => {
        const acl = new Acl([...list, { name: 'root', rules: [] }]);
        expect(acl.allowsMany(checks)).toEqual(checks.map(() => true));
        for (const { capability, path } of checks) {
          expect(acl.allows(capability, path)).toBe(true);
          expect(acl.capabilities(path)).toEqual(['root']);
        }
      }),
      { seed: 20_270_027, numRuns: 100 },
    );
  });
});
