// A child token never holds more than its parent, over random creation requests through the HTTP API (fast-check,
// seeded): its policies are among the parent's, it has `default` only if the parent does, a parent with limited uses
// makes nothing, a child keeps the parent's bound CIDRs, and it expires no later than the parent.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTokenServer, type TokenServer } from './token-harness.js';

const NAMED = ['alpha', 'beta', 'gamma'] as const;
const MINTER =
  'path "auth/token/create" { capabilities = ["update"] }\npath "auth/token/create-orphan" { capabilities = ["update"] }';
const REFUSALS = new Set([
  'child policies must be subset of parent',
  'restricted use token cannot generate child tokens',
  'root or sudo privileges required to create orphan token',
  'root or sudo privileges required to create periodic token',
]);

let server: TokenServer;

beforeAll(async () => {
  server = await startTokenServer({ tokenMaxTtl: 4 * 3600 });
  await server.putPolicy('minter', MINTER);
  for (const name of NAMED) await server.putPolicy(name, `path "secret/data/${name}/*" { capabilities = ["read"] }`);
  await server.putRole('near', {
    token_policies: ['minter', 'alpha'],
    token_bound_cidrs: ['127.0.0.1/32'],
    token_ttl: 900,
  });
  await server.putRole('wide', {
    token_policies: ['minter', 'beta'],
    token_bound_cidrs: ['127.0.0.0/8', '10.0.0.0/8'],
    token_ttl: 1800,
  });
}, 60_000);

afterAll(() => server?.stop());

const policyList = fc.option(fc.subarray([...NAMED, 'default', 'root', 'minter']), { nil: undefined });
const parentSpec = fc.oneof(
  fc.record({
    policies: fc.subarray([...NAMED]).map((names) => ['minter', ...names]),
    no_default_policy: fc.boolean(),
    ttl: fc.constantFrom(60, 600, 3600),
    num_uses: fc.constantFrom(0, 0, 0, 1, 3),
  }),
  fc.constantFrom('near', 'wide'),
);
const childRequest = fc.record(
  {
    policies: policyList,
    no_default_policy: fc.boolean(),
    no_parent: fc.boolean(),
    ttl: fc.constantFrom(30, 600, 7200),
    explicit_max_ttl: fc.constantFrom(100, 20_000),
    num_uses: fc.constantFrom(0, 2),
    period: fc.constant(300),
  },
  { requiredKeys: [] },
);
const orphanPath = fc.boolean().map((orphan) => (orphan ? 'auth/token/create-orphan' : 'auth/token/create'));

const expiry = (data: Record<string, any>) => (data.expire_time === null ? Infinity : Date.parse(data.expire_time));

describe('a child token', () => {
  it('never exceeds its parent', async () => {
    await fc.assert(
      fc.asyncProperty(
        parentSpec,
        fc.array(fc.tuple(childRequest, orphanPath), { minLength: 1, maxLength: 3 }),
        async (spec, requests) => {
          const parent =
            typeof spec === 'string' ? (await server.login(spec)).json.auth.client_token : await server.made(spec);
          for (const [body, path] of requests) {
            const before = await server.lookup(parent);
            const made = await server.create(parent, body, path);
            // Its last use went on an earlier request.
            if (!before) {
              expect(made.status).toBe(403);
              break;
            }
            if (made.status !== 200) {
              expect(made.status).toBe(400);
              expect(REFUSALS, made.text).toContain(made.json.errors[0]);
              if (before.num_uses > 0)
                expect(made.json.errors).toEqual(['restricted use token cannot generate child tokens']);
              continue;
            }
            expect(before.num_uses).toBe(0);
            const child = (await server.lookup(made.json.auth.client_token))!;
            expect(
              child.policies.every((name: string) => before.policies.includes(name)),
              `${child.policies} within ${before.policies}`,
            ).toBe(true);
            expect(child.policies).not.toContain('root');
            if (child.orphan) {
              expect(child.bound_cidrs).toBeUndefined();
              continue;
            }
            expect(child.bound_cidrs).toEqual(before.bound_cidrs);
            expect(expiry(child)).toBeLessThanOrEqual(expiry(before));
          }
        },
      ),
      { seed: 2717, numRuns: 40 },
    );
  });
});
