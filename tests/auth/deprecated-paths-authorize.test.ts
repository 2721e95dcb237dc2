import { describe, expect, it } from 'vitest';
import { Acl } from '../../src/acl/acl.js';
import { parsePolicy } from '../../src/acl/policy.js';
import type { CapabilityCheck } from '../../src/core/framework/request.js';
import { adminHarness, errorOf } from './admin-harness.js';

/**
 * Deprecated alias paths are authorised under both names: the path as written must be granted, as in Vault, and so
 * must the current path, so that a deny written for either name holds. Before, only the current path was asked, and a
 * deny on `identity-whitelist/*` did nothing.
 */
describe('deprecated aliases ask authorize about the path as written and the current path', () => {
  it.each([
    ['GET', 'identity-whitelist/i-1', 'identity-accesslist/i-1'],
    ['LIST', 'identity-whitelist', 'identity-accesslist/'],
    ['DELETE', 'identity-whitelist/i-1', 'identity-accesslist/i-1'],
    ['GET', 'roletag-blacklist/dGFnYmxhY2tsaXN0', 'roletag-denylist/dGFnYmxhY2tsaXN0'],
    ['POST', 'tidy/identity-whitelist', 'tidy/identity-accesslist'],
    ['POST', 'tidy/roletag-blacklist', 'tidy/roletag-denylist'],
    ['GET', 'config/tidy/identity-whitelist', 'config/tidy/identity-accesslist'],
    ['POST', 'config/tidy/roletag-blacklist', 'config/tidy/roletag-denylist'],
  ] as const)('%s %s asks about itself, then %s', async (method, path, current) => {
    const h = adminHarness();
    const asked: CapabilityCheck[] = [];
    const written = method === 'LIST' ? `${path}/` : path;
    const response = await h.call(method, path, method === 'POST' ? {} : undefined, {
      authorize: (check) => (asked.push(check), true),
    });
    expect(response.status).toBeLessThan(500);
    expect(asked.map((check) => check.path)).toEqual([written, current]);
    expect(asked[0]!.capability).toBe(asked[1]!.capability);
  });

  it('a refusal of the path as written is final: the current path is not asked', async () => {
    const h = adminHarness();
    const asked: string[] = [];
    const response = await h.call('DELETE', 'identity-whitelist/i-1', undefined, {
      authorize: ({ path }) => (asked.push(path), false),
    });
    expect(response.status).toBe(403);
    expect(asked).toEqual(['identity-whitelist/i-1']);
  });

  it('a refusal of the current path is a 403 before the fields are read or anything changes', async () => {
    const h = adminHarness();
    const onlyOldNames = ({ path }: CapabilityCheck) => /whitelist|blacklist/.test(path);
    const badFields = await h.call(
      'POST',
      'config/tidy/identity-whitelist',
      { safety_buffer: 'not a duration' },
      { authorize: onlyOldNames },
    );
    expect(badFields.status).toBe(403);
    expect(errorOf(badFields)).toBe('permission denied');
    expect(
      (await h.call('POST', 'config/tidy/identity-whitelist', { safety_buffer: 60 }, { authorize: onlyOldNames }))
        .status,
    ).toBe(403);
    expect((await h.read('config/tidy/identity-accesslist')).status).toBe(404);
  });

  describe('with Vault policies (the Acl of src/acl)', () => {
    const authorizer = (policy: string) => new Acl([{ name: 'p', rules: parsePolicy(policy) }]).authorizer('');
    const grantBoth = `
      path "identity-accesslist/*" { capabilities = ["read", "delete"] }
      path "identity-whitelist/*" { capabilities = ["read", "delete"] }`;

    it('a deny on the deprecated name holds, though the current name is granted', async () => {
      const h = adminHarness();
      const authorize = authorizer(`${grantBoth}\npath "identity-whitelist/i-1" { capabilities = ["deny"] }`);
      expect((await h.call('DELETE', 'identity-whitelist/i-1', undefined, { authorize })).status).toBe(403);
      expect((await h.call('DELETE', 'identity-whitelist/i-2', undefined, { authorize })).status).toBe(204);
      expect((await h.call('DELETE', 'identity-accesslist/i-1', undefined, { authorize })).status).toBe(204);
    });

    it('a deny on the current name covers the deprecated one too', async () => {
      const h = adminHarness();
      const authorize = authorizer(`${grantBoth}\npath "identity-accesslist/i-1" { capabilities = ["deny"] }`);
      for (const path of ['identity-whitelist/i-1', 'identity-accesslist/i-1']) {
        expect((await h.call('DELETE', path, undefined, { authorize })).status).toBe(403);
      }
      expect((await h.call('DELETE', 'identity-whitelist/i-2', undefined, { authorize })).status).toBe(204);
    });

    it('a grant on the current name alone does not open the deprecated name (as in Vault)', async () => {
      const h = adminHarness();
      const authorize = authorizer('path "roletag-denylist/*" { capabilities = ["read"] }');
      expect((await h.call('GET', 'roletag-blacklist/dGFn', undefined, { authorize })).status).toBe(403);
      expect((await h.call('GET', 'roletag-denylist/dGFn', undefined, { authorize })).status).toBe(404);
    });

    it('a grant on the deprecated name alone does not open it either: a deny on the current name could not be told apart', async () => {
      const h = adminHarness();
      const authorize = authorizer('path "roletag-blacklist/*" { capabilities = ["read"] }');
      expect((await h.call('GET', 'roletag-blacklist/dGFn', undefined, { authorize })).status).toBe(403);
      const both = authorizer(
        'path "roletag-blacklist/*" { capabilities = ["read"] }\npath "roletag-denylist/*" { capabilities = ["read"] }',
      );
      expect((await h.call('GET', 'roletag-blacklist/dGFn', undefined, { authorize: both })).status).toBe(404);
    });
  });
});
