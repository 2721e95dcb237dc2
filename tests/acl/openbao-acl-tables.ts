// Vendored test data: policies and expected verdicts from OpenBao's ACL decision tables.
//
// Provenance: https://github.com/openbao/openbao, commit df6ce2cebaa823979215c116a16820aa913fe3b1,
// file internal/vault/policy/acl_test.go (inherited from HashiCorp Vault's vault/acl_test.go), tests TestACL_Single,
// TestACL_Layered, TestACL_Capabilities, TestACL_Root, TestACL_ParseMalformedPolicy, TestACL_SegmentWildcardPriority,
// TestACLGrantingPolicies and TestACL_ListScanWildcardDeny; the policies are that file's aclPolicy, aclPolicy2,
// grantingTestPolicy, grantingTestPolicyMerged and listScanDenyPolicy.
// Licence: MPL-2.0 ("Copyright (c) HashiCorp, Inc.", SPDX-License-Identifier: MPL-2.0, as that file states). The
// policy texts and the rows below are copied from it unchanged, except that each row's Go operation constant is written
// as the capability the operation needs, and the root-privileges check on sys/mount/foo that opens TestACL_Single and
// TestACL_Layered is written as a row. The code that runs them is in openbao-acl.test.ts.

import type { RequiredCapability } from '../../src/acl/index.js';

/** [capability the operation needs, path, allowed, root privileges (sudo)] */
export type DecisionRow = readonly [RequiredCapability, string, boolean, boolean];

export const ACL_POLICY = `
name = "DeV"
path "dev/*" {
	policy = "sudo"
}
path "stage/*" {
	policy = "write"
}
path "stage/aws/*" {
	policy = "read"
	capabilities = ["update", "sudo"]
}
path "stage/aws/policy/*" {
	policy = "sudo"
}
path "prod/*" {
	policy = "read"
}
path "prod/aws/*" {
	policy = "deny"
}
path "sys/*" {
	policy = "deny"
}
path "foo/bar" {
	capabilities = ["read", "create", "sudo"]
}
path "baz/quux" {
	capabilities = ["read", "create", "patch"]
}
path "test/+/segment" {
	capabilities = ["read"]
}
path "+/segment/at/front" {
	capabilities = ["read"]
}
path "test/segment/at/end/+" {
	capabilities = ["read"]
}
path "test/segment/at/end/v2/+/" {
	capabilities = ["read"]
}
path "test/+/wildcard/+/*" {
	capabilities = ["read"]
}
path "test/+/wildcardglob/+/end*" {
	capabilities = ["read"]
}
path "1/2/*" {
	capabilities = ["create"]
}
path "1/2/+" {
	capabilities = ["read"]
}
path "1/2/+/+" {
	capabilities = ["update"]
}
path "asdf/fdsa" {
	capabilities = ["scan"]
}
`;

export const ACL_POLICY_2 = `
name = "OpS"
path "dev/hide/*" {
	policy = "deny"
}
path "stage/aws/policy/*" {
	policy = "deny"
	# This should have no effect
	capabilities = ["read", "update", "sudo"]
}
path "prod/*" {
	policy = "write"
}
path "sys/seal" {
	policy = "sudo"
}
path "foo/bar" {
	capabilities = ["deny"]
}
path "baz/quux" {
	capabilities = ["deny"]
}
`;

/** TestACL_Single, over ACL_POLICY alone (the HelpOperation rows are left out). */
export const SINGLE: readonly DecisionRow[] = [
  ['read', 'sys/mount/foo', false, false],
  ['read', 'root', false, false],
  ['read', 'dev/foo', true, true],
  ['update', 'dev/foo', true, true],
  ['delete', 'stage/foo', true, false],
  ['list', 'stage/aws/foo', true, true],
  ['update', 'stage/aws/foo', true, true],
  ['update', 'stage/aws/policy/foo', true, true],
  ['delete', 'prod/foo', false, false],
  ['update', 'prod/foo', false, false],
  ['read', 'prod/foo', true, false],
  ['list', 'prod/foo', true, false],
  ['read', 'prod/aws/foo', false, false],
  ['read', 'foo/bar', true, true],
  ['list', 'foo/bar', false, true],
  ['update', 'foo/bar', false, true],
  ['create', 'foo/bar', true, true],
  ['read', 'baz/quux', true, false],
  ['create', 'baz/quux', true, false],
  ['patch', 'baz/quux', true, false],
  ['list', 'baz/quux', false, false],
  ['update', 'baz/quux', false, false],
  ['scan', 'baz/quux', false, false],
  ['scan', 'asdf/fdsa', true, false],
  ['list', 'asdf/fdsa', false, false],
  // Path segment wildcards
  ['read', 'test/foo/bar/segment', false, false],
  ['read', 'test/foo/segment', true, false],
  ['read', 'test/bar/segment', true, false],
  ['read', 'test/segment/at/frond', false, false],
  ['read', 'test/segment/at/front', true, false],
  ['read', 'test/segment/at/end/foo', true, false],
  ['read', 'test/segment/at/end/foo/', false, false],
  ['read', 'test/segment/at/end/v2/foo/', true, false],
  ['read', 'test/segment/wildcard/at/foo/', true, false],
  ['read', 'test/segment/wildcard/at/end', true, false],
  ['read', 'test/segment/wildcard/at/end/', true, false],
  // Path segment wildcards vs glob
  ['read', '1/2/3/4', false, false],
  ['read', '1/2/3', true, false],
  ['update', '1/2/3', false, false],
  ['update', '1/2/3/4', true, false],
  ['create', '1/2/3/4/5', true, false],
];

/** TestACL_Layered, over ACL_POLICY and ACL_POLICY_2 (the HelpOperation row is left out). */
export const LAYERED: readonly DecisionRow[] = [
  ['read', 'sys/mount/foo', false, false],
  ['read', 'root', false, false],
  ['read', 'dev/foo', true, true],
  ['update', 'dev/foo', true, true],
  ['read', 'dev/hide/foo', false, false],
  ['update', 'dev/hide/foo', false, false],
  ['delete', 'stage/foo', true, false],
  ['list', 'stage/aws/foo', true, true],
  ['update', 'stage/aws/foo', true, true],
  ['update', 'stage/aws/policy/foo', false, false],
  ['delete', 'prod/foo', true, false],
  ['update', 'prod/foo', true, false],
  ['read', 'prod/foo', true, false],
  ['list', 'prod/foo', true, false],
  ['read', 'prod/aws/foo', false, false],
  ['read', 'sys/status', false, false],
  ['update', 'sys/seal', true, true],
  ['read', 'foo/bar', false, false],
  ['list', 'foo/bar', false, false],
  ['update', 'foo/bar', false, false],
  ['create', 'foo/bar', false, false],
  ['read', 'baz/quux', false, false],
  ['list', 'baz/quux', false, false],
  ['update', 'baz/quux', false, false],
  ['create', 'baz/quux', false, false],
  ['patch', 'baz/quux', false, false],
];

/** TestACL_Capabilities over ACL_POLICY: what sys/capabilities reports. */
export const CAPABILITIES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['dev', ['deny']],
  ['dev/', ['sudo', 'read', 'list', 'update', 'delete', 'create']],
  ['stage/aws/test', ['sudo', 'read', 'list', 'update']],
];

/** TestACL_SegmentWildcardPriority: in each policy the update rule is the more specific one on the path. */
export const SEGMENT_WILDCARD_PRIORITY: ReadonlyArray<readonly [string, string]> = [
  [
    `
path "+/*" { capabilities = ["read"] }
path "*" { capabilities = ["update"] }
`,
    'foo/bar/bar/baz',
  ],
  [
    `
path "+/*" { capabilities = ["read"] }
path "foo/+/*" { capabilities = ["update"] }
`,
    'foo/bar/bar/baz',
  ],
  [
    `
path "foo/+/+/*" { capabilities = ["read"] }
path "foo/+/bar/baz" { capabilities = ["update"] }
`,
    'foo/bar/bar/baz',
  ],
  [
    `
path "foo/+/+/baz" { capabilities = ["read"] }
path "foo/+/bar/baz" { capabilities = ["update"] }
`,
    'foo/bar/bar/baz',
  ],
  [
    `
path "foo/+/(ar/baz" { capabilities = ["read"] }
path "foo/(ar/+/baz" { capabilities = ["update"] }
`,
    'foo/(ar/(ar/baz',
  ],
  [
    `
path "foo/bar/+/baz*" { capabilities = ["read"] }
path "foo/bar/+/baz" { capabilities = ["update"] }
`,
    'foo/bar/bar/baz',
  ],
  [
    `
path "foo/bar/+/b*" { capabilities = ["read"] }
path "foo/bar/+/ba*" { capabilities = ["update"] }
`,
    'foo/bar/bar/baz',
  ],
];

export const GRANTING_POLICY = `
name = "granting_policy"
path "kv/foo" {
	capabilities = ["update", "read"]
}

path "kv/path/*" {
	capabilities = ["read"]
}

path "kv/path/longer" {
	capabilities = ["update", "read"]
}

path "kv/path/longer2" {
	capabilities = ["update"]
}

path "kv/deny" {
	capabilities = ["deny"]
}

path "ns1/kv/foo" {
	capabilities = ["update", "read"]
}
`;

export const GRANTING_POLICY_MERGED = `
name = "granting_policy_merged"
path "kv/foo" {
	capabilities = ["update", "read"]
}

path "kv/bar" {
	capabilities = ["update", "read"]
}

path "kv/path/*" {
	capabilities = ["read"]
}

path "kv/path/longer" {
	capabilities = ["read"]
}

path "kv/path/longer3" {
	capabilities = ["read"]
}

path "kv/deny" {
	capabilities = ["update"]
}
`;

/** TestACLGrantingPolicies: [path, capability, with the merged policy too, allowed] (the granting-policy lists are left out). */
export const GRANTING: ReadonlyArray<readonly [string, RequiredCapability, boolean, boolean]> = [
  ['kv/foo', 'read', false, true],
  ['kv/foo', 'update', false, true],
  ['kv/bad', 'read', false, false],
  ['kv/deny', 'read', false, false],
  ['kv/path/foo', 'read', false, true],
  ['kv/path/longer', 'read', false, true],
  ['kv/foo', 'read', true, true],
  ['kv/path/longer3', 'read', true, true],
  ['kv/bar', 'read', true, true],
  ['kv/deny', 'read', true, false],
  ['kv/path/longer', 'update', true, true],
  ['kv/path/foo', 'read', true, true],
];

export const LIST_SCAN_DENY_POLICY = `
path "foo/metadata/*" { capabilities = ["list","scan"] }
path "foo/metadata/private/*" { capabilities = ["deny"] }
path "foo/metadata/private/granted/*" { capabilities = ["list","scan"] }
`;

/** TestACL_ListScanWildcardDeny: each path is asked with a trailing '/', as a LIST and as a SCAN. */
export const LIST_SCAN_DENY: ReadonlyArray<readonly [string, boolean]> = [
  ['foo', false],
  ['foo/metadata', true],
  ['foo/metadata/test', true],
  ['foo/metadata/private', false],
  ['foo/metadata/private/internal', false],
  ['foo/metadata/private/granted', true],
  ['foo/metadata/private/granted/test', true],
];
