import { describe, expect, it } from 'vitest';
import type { CapabilityCheck } from '../../src/core/request.js';
import { adminHarness } from './admin-harness.js';

/** Deprecated alias paths are authorised as their current paths (issue 18.5). */
describe('deprecated aliases ask authorize about the current path', () => {
  it.each([
    ['GET', 'identity-whitelist/i-1', 'identity-accesslist/i-1'],
    ['LIST', 'identity-whitelist', 'identity-accesslist/'],
    ['DELETE', 'identity-whitelist/i-1', 'identity-accesslist/i-1'],
    ['GET', 'roletag-blacklist/dGFnYmxhY2tsaXN0', 'roletag-denylist/dGFnYmxhY2tsaXN0'],
    ['POST', 'tidy/identity-whitelist', 'tidy/identity-accesslist'],
    ['POST', 'tidy/roletag-blacklist', 'tidy/roletag-denylist'],
    ['GET', 'config/tidy/identity-whitelist', 'config/tidy/identity-accesslist'],
    ['POST', 'config/tidy/roletag-blacklist', 'config/tidy/roletag-denylist'],
  ] as const)('%s %s is authorised as %s', async (method, path, current) => {
    const h = adminHarness();
    const asked: CapabilityCheck[] = [];
    await h.call(method, path, method === 'POST' ? {} : undefined, { authorize: (request) => (asked.push(request), false) });
    expect(asked.map((request) => request.path)).toEqual([current]);
  });

  it('a deny on identity-accesslist/* covers identity-whitelist/* too', async () => {
    const h = adminHarness();
    const denyAccessList = ({ path }: CapabilityCheck) => !path.startsWith('identity-accesslist/');
    for (const path of ['identity-whitelist/i-1', 'identity-accesslist/i-1']) {
      expect((await h.call('DELETE', path, undefined, { authorize: denyAccessList })).status).toBe(403);
    }
    expect((await h.call('DELETE', 'role/web', undefined, { authorize: denyAccessList })).status).toBe(204);
  });
});
