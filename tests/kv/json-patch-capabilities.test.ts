import { describe, expect, it } from 'vitest';
import { dataOf, JSON_PATCH, MERGE, policy, setup } from './helpers.js';

/** JSON Patch is no oracle for a principal who may patch but not read (issue 18.4). */
describe('a JSON Patch request needs read as well as patch', () => {
  it('refuses test and remove to a patch-only principal, so right and wrong guesses look alike', async () => {
    const env = setup();
    await env.W('db', { password: 'hunter2', user: 'app' });
    const patcher = policy('patch:data/db');
    const guess = (value: string) =>
      env.handle({
        method: 'PATCH',
        path: 'data/db',
        headers: JSON_PATCH,
        body: { data: [{ op: 'test', path: '/password', value }] },
        authorize: patcher.authorize,
      });
    const right = await guess('hunter2');
    const wrong = await guess('wrong');
    expect(right).toEqual(wrong);
    expect(right.status).toBe(403);
    const probe = await env.handle({
      method: 'PATCH',
      path: 'data/db',
      headers: JSON_PATCH,
      body: { data: [{ op: 'remove', path: '/user' }] },
      authorize: patcher.authorize,
    });
    expect(probe.status).toBe(403);
    expect(patcher.asked).toContainEqual({ capability: 'read', path: 'data/db' });
    expect(dataOf(await env.R('db')).metadata.version).toBe(1);
  });

  it('asks for patch and then read on the data path, and applies the patch when both are granted', async () => {
    const env = setup();
    await env.W('db', { password: 'hunter2' });
    const both = policy('patch:data/db', 'read:data/db');
    const response = await env.handle({
      method: 'PATCH',
      path: 'data/db',
      headers: JSON_PATCH,
      body: {
        data: [
          { op: 'test', path: '/password', value: 'hunter2' },
          { op: 'add', path: '/x', value: 1 },
        ],
      },
      authorize: both.authorize,
    });
    expect(response.status).toBe(200);
    expect(both.asked).toEqual([
      { capability: 'patch', path: 'data/db' },
      { capability: 'read', path: 'data/db' },
    ]);
  });

  it('keeps merge patch at patch alone, as Vault does', async () => {
    const env = setup();
    await env.W('db', { password: 'hunter2' });
    const patcher = policy('patch:data/db');
    const response = await env.handle({
      method: 'PATCH',
      path: 'data/db',
      headers: MERGE,
      body: { data: { rotated: true } },
      authorize: patcher.authorize,
    });
    expect(response.status).toBe(200);
    expect(patcher.asked).toEqual([{ capability: 'patch', path: 'data/db' }]);
  });
});
