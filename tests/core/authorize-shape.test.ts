import { describe, expect, it } from 'vitest';
import type { EngineRequest } from '../../src/core/framework/request.js';
import { KvEngine } from '../../src/kv/index.js';
import { adminHarness } from '../auth/admin-harness.js';
import { testStorage } from '../support/test-storage.js';

/** An `authorize` that is not a function is the caller's mistake: a clear 400, never a TypeError 500 (issue 18.9). */
describe('an authorize member that is not a function', () => {
  it.each([
    ['a string', 'yes'],
    ['an object', { allow: true }],
    ['false', false],
    ['a number', 1],
  ])('is a 400 when it is %s, and nothing is written', async (_name, authorize) => {
    const faults: unknown[] = [];
    const kv = new KvEngine({ storage: testStorage(), onInternalError: (error) => faults.push(error) });
    const request = { method: 'POST', path: 'data/k', body: { data: { a: 1 } }, authorize } as unknown as EngineRequest;
    expect(await kv.handle(request)).toEqual({
      status: 400,
      body: { errors: ['the request authorize must be a function'] },
    });
    expect(faults).toEqual([]);
    expect((await kv.handle({ method: 'GET', path: 'data/k' })).status).toBe(404);
  });

  it('is a 400 on the auth method too, and null still means no callback', async () => {
    const h = adminHarness();
    expect((await h.call('GET', 'config/client', undefined, { authorize: 'no' as never })).status).toBe(400);
    expect((await h.call('GET', 'config/client', undefined, { authorize: null as never })).status).toBe(404);
    expect(h.internalErrors).toEqual([]);
  });
});

/**
 * Only `true` grants. A JavaScript callback that answers something else (a forgotten `return` in an async callback, the
 * string "false" from a configuration, a policy object) must fail closed, as the readable-only listing filter does.
 */
describe('an authorize verdict that is not exactly true', () => {
  const verdicts: Array<[string, unknown]> = [
    ['the string "yes"', 'yes'],
    ['the string "false"', 'false'],
    ['the number 1', 1],
    ['an object', { allowed: false }],
    ['a promise of "true"', Promise.resolve('true')],
  ];

  it.each(verdicts)('denies when it is %s, on every path that asks, and changes nothing', async (_name, verdict) => {
    const storage = testStorage();
    const kv = new KvEngine({ storage });
    await kv.write('src', { a: 1 });
    await kv.write('folder/k', { a: 1 });
    const authorize = (() => verdict) as unknown as EngineRequest['authorize'];
    // Move and folder delete ask more after the route's own check: that one is granted, the others get the verdict.
    const after = (granted: string) =>
      ((check: { path: string }) => (check.path === granted ? true : verdict)) as unknown as EngineRequest['authorize'];
    const requests: EngineRequest[] = [
      { method: 'POST', path: 'data/src', body: { data: { a: 2 } }, authorize },
      { method: 'GET', path: 'data/src', authorize },
      { method: 'POST', path: 'move/src', body: { to: 'dst' }, authorize },
      { method: 'POST', path: 'move/src', body: { to: 'dst' }, authorize: after('move/src') },
      {
        method: 'DELETE',
        path: 'metadata/folder/',
        query: { recursive: 'true' },
        authorize: after('metadata/folder/'),
      },
    ];
    for (const request of requests)
      expect(await kv.handle(request)).toEqual({ status: 403, body: { errors: ['permission denied'] } });
    expect((await kv.read('src')).data).toEqual({ a: 1 });
    expect(await kv.list('')).toEqual(['folder/', 'src']);

    const h = adminHarness();
    expect(
      (await h.call('POST', 'role/web', { auth_type: 'ec2', bound_ami_id: 'ami-1' }, { authorize: authorize as never }))
        .status,
    ).toBe(403);
    expect((await h.call('GET', 'role/web')).status).toBe(404);
  });
});
