// What `npm run mutation` mutates, group by group, and the tests that may kill each group's mutants. Tests are picked
// by a vitest `include` (mutation/vitest.config.ts), not by Stryker's own test filter: with that filter, mutants in
// module-level code are reported as surviving although a test would notice them.
export const GROUPS = {
  acl: {
    mutate: [
      'src/acl/acl.ts',
      'src/acl/folder-rules.ts',
      'src/acl/wildcard-rules.ts',
      'src/acl/policy.ts',
      'src/acl/policy-json.ts',
      'src/acl/hcl.ts',
      'src/acl/capability.ts',
    ],
    tests: ['tests/acl/**/*.test.ts'],
  },
  tokens: {
    // token-store.ts and token-routes.ts, and what was split out of them: the create rules, the quota ledger, the root
    // token, CIDR checks, and the redaction of tokens sent in the path.
    mutate: [
      'src/server/routes/token-routes.ts',
      'src/server/tokens/token-store.ts',
      'src/server/tokens/token-create.ts',
      'src/server/tokens/token-ledger.ts',
      'src/server/tokens/token-root.ts',
      'src/server/tokens/token-cidrs.ts',
      'src/server/tokens/token-path.ts',
    ],
    tests: ['tests/server/tokens/*.test.ts'],
  },
  shim: {
    mutate: [
      'src/adapters/http/list-method.ts',
      'src/adapters/http/request-head.ts',
      'src/adapters/http/field-section.ts',
      'src/adapters/http/chunked-body.ts',
    ],
    tests: ['tests/adapters/http/list-method*.test.ts'],
  },
  signature: {
    mutate: ['src/auth/pkcs7/rsa-signature.ts', 'src/auth/pkcs7/asn1-time.ts'],
    tests: ['tests/auth/signatures/rsa-signature*.test.ts', 'tests/auth/signatures/asn1-time.test.ts'],
  },
  'json-patch': {
    mutate: ['src/kv/values/json-patch.ts'],
    tests: ['tests/kv/json-patch*.test.ts'],
  },
  events: {
    mutate: [
      'src/server/routes/event-routes.ts',
      'src/server/routes/event-subscriptions.ts',
      'src/kv/changes/change-feed.ts',
      'src/kv/changes/change-events.ts',
      'src/kv/changes/recorded-change.ts',
      'src/server/routes/sys-routes.ts',
      'src/server/policies/mount-access.ts',
      'src/server/policies/policy-store.ts',
    ],
    tests: [
      'tests/server/events/*.test.ts',
      'tests/server/sys/sys*.test.ts',
      'tests/server/policies/policies*.test.ts',
      'tests/kv/change-events.test.ts',
      'tests/kv/change-events-feed*.test.ts',
      'tests/kv/change-events-watch*.test.ts',
    ],
  },
};
