import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/adapters/memory-storage.js';
import type { EngineRequest } from '../../src/core/request.js';
import { KvEngine } from '../../src/kv/index.js';
import { adminHarness } from '../auth/admin-harness.js';

/** An `authorize` that is not a function is the caller's mistake: a clear 400, never a TypeError 500 (issue 18.9). */
describe('an authorize member that is not a function', () => {
  it.each([['a string', 'yes'], ['an object', { allow: true }], ['false', false], ['a number', 1]])('is a 400 when it is %s, and nothing is written', async (_name, authorize) => {
    const faults: unknown[] = [];
    const kv = new KvEngine({ storage: new MemoryStorage(), onInternalError: (error) => faults.push(error) });
    const request = { method: 'POST', path: 'data/k', body: { data: { a: 1 } }, authorize } as unknown as EngineRequest;
    expect(await kv.handle(request)).toEqual({ status: 400, body: { errors: ['the request authorize must be a function'] } });
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
