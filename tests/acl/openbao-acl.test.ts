// An outside oracle for the evaluator: OpenBao's (and before it HashiCorp Vault's) ACL decision tables, run over our
// Acl. The tables are vendored in openbao-acl-tables.ts with their provenance: https://github.com/openbao/openbao,
// commit df6ce2cebaa823979215c116a16820aa913fe3b1, internal/vault/policy/acl_test.go, tests TestACL_Single,
// TestACL_Layered, TestACL_Capabilities, TestACL_Root, TestACL_ParseMalformedPolicy,
// TestACL_SegmentWildcardPriority, TestACLGrantingPolicies and TestACL_ListScanWildcardDeny; MPL-2.0.
// tests/server/policies/acl-list-deny.test.ts runs the capabilities table through the server's sys/capabilities-self as well.
//
// Left out, because strongroom does not have the feature (parsePolicy refuses the policy keys they need):
// - TestACL_PolicyMerge, TestACL_AllowOperation, TestACL_ValuePermissions: parameter constraints
//   (allowed/denied/required_parameters) and response-wrapping TTLs;
// - TestACL_ControlGroup and TestACL_MFAMethods: control groups and MFA;
// - TestACL_NewACL and the child-namespace half of TestACL_Root: namespaces;
// - TestACL_SegmentWildcardPriority_BareMount: the "may this token see anything under a mount" check behind
//   sys/internal/ui/mounts, which the server does not serve;
// - the HelpOperation rows (there is no help operation), and the granting-policy lists of TestACLGrantingPolicies
//   (the Acl answers whether, not which policies granted); their `allowed` column is kept;
// - TestACL_CreationRace: a Go data race check; an Acl is immutable once built.
import { describe, expect, it } from 'vitest';
import { Acl, parsePolicy, type NamedPolicy, type RequiredCapability } from '../../src/acl/index.js';
import {
  ACL_POLICY,
  ACL_POLICY_2,
  CAPABILITIES,
  GRANTING,
  GRANTING_POLICY,
  GRANTING_POLICY_MERGED,
  LAYERED,
  LIST_SCAN_DENY,
  LIST_SCAN_DENY_POLICY,
  SEGMENT_WILDCARD_PRIORITY,
  SINGLE,
  type DecisionRow,
} from './openbao-acl-tables.js';

const named = (name: string, text: string): NamedPolicy => ({ name, rules: parsePolicy(text) });

/** Each row through `allows` and, so that the bulk path is held to the same oracle, through `allowsMany`. */
function expectRows(acl: Acl, rows: readonly DecisionRow[]): void {
  for (const [capability, path, allowed, rootPrivs] of rows) {
    expect([capability, path, acl.allows(capability, path), acl.allows('sudo', path)]).toEqual([
      capability,
      path,
      allowed,
      rootPrivs,
    ]);
  }
  const checks = rows.map(([capability, path]) => ({ capability, path }));
  expect(acl.allowsMany(checks)).toEqual(rows.map(([, , allowed]) => allowed));
}

describe('OpenBao TestACL_Single', () => {
  it('every row', () => expectRows(new Acl([named('dev', ACL_POLICY)]), SINGLE));
});

describe('OpenBao TestACL_Layered', () => {
  it('every row, whatever the order of the two policies', () => {
    expectRows(new Acl([named('dev', ACL_POLICY), named('ops', ACL_POLICY_2)]), LAYERED);
    expectRows(new Acl([named('ops', ACL_POLICY_2), named('dev', ACL_POLICY)]), LAYERED);
  });
});

describe('OpenBao TestACL_Capabilities and TestACL_Root', () => {
  it.each(CAPABILITIES)('capabilities of %j', (path, expected) => {
    expect(new Acl([named('dev', ACL_POLICY)]).capabilities(path)).toEqual(expected);
  });

  it('the root policy reports root and allows an update of sys/mount/foo, with root privileges', () => {
    const root = new Acl([{ name: 'root', rules: [] }]);
    expect(root.capabilities('any/path')).toEqual(['root']);
    expect(root.allows('update', 'sys/mount/foo')).toBe(true);
    expect(root.allows('sudo', 'sys/mount/foo')).toBe(true);
  });
});

describe('OpenBao TestACL_ParseMalformedPolicy', () => {
  it('refuses name{}', () => {
    expect(() => parsePolicy('name{}')).toThrow(/failed to parse policy/);
  });
});

describe('OpenBao TestACL_SegmentWildcardPriority', () => {
  it.each(SEGMENT_WILDCARD_PRIORITY)('the update rule wins: %s on %s', (policy, path) => {
    const acl = new Acl([named('p', policy)]);
    expect(acl.allows('update', path)).toBe(true);
    expect(acl.allows('read', path)).toBe(false);
  });
});

describe('OpenBao TestACLGrantingPolicies (allowed column)', () => {
  it.each(GRANTING)('%s %s (with the merged policy: %s) → %s', (path, capability, withMerged, allowed) => {
    const policies = [
      named('granting_policy', GRANTING_POLICY),
      ...(withMerged ? [named('granting_policy_merged', GRANTING_POLICY_MERGED)] : []),
    ];
    expect(new Acl(policies).allows(capability, path)).toBe(allowed);
  });
});

describe('OpenBao TestACL_ListScanWildcardDeny', () => {
  const acl = new Acl([named('p', LIST_SCAN_DENY_POLICY)]);
  const operations: RequiredCapability[] = ['scan', 'list'];

  it.each(LIST_SCAN_DENY)('%s/ → %s, as a LIST and as a SCAN', (path, allowed) => {
    for (const capability of operations)
      expect([capability, acl.allows(capability, `${path}/`)]).toEqual([capability, allowed]);
    expect(acl.capabilities(`${path}/`).includes('list')).toBe(allowed);
  });
});
