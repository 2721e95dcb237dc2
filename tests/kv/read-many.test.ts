import { describe, expect, it } from 'vitest';
import type { CapabilityCheck, EngineRequest } from '../../src/core/framework/request.js';
import { dataOf, expectError, setup } from './helpers.js';

/** POST read-many (hashicorp/vault#272): each item answers what its GET data/<path> answers, authorised as that GET. */

async function fixture() {
  const env = setup();
  await env.W('app/db', { password: 'one' });
  await env.W('app/db', { password: 'two' });
  await env.W('app/api', { key: 'k1' });
  await env.W('app/api', { key: 'k2' });
  await env.W('gone/deleted', { a: 1 });
  await env.DEL('gone/deleted');
  await env.W('gone/destroyed', { a: 1 });
  await env.versions('destroy', 'gone/destroyed', [1]);
  return env;
}

const readMany = (env: ReturnType<typeof setup>, body: unknown, authorize?: EngineRequest['authorize']) =>
  env.handle({ method: 'POST', path: 'read-many', body, ...(authorize ? { authorize } : {}) });

const only =
  (...readable: string[]) =>
  (check: CapabilityCheck) =>
    check.capability === 'read' && readable.includes(check.path);

describe('POST read-many', () => {
  it('answers, in request order, exactly what each GET data/<path> answers', async () => {
    const env = await fixture();
    const items = [
      { path: 'app/api', version: 1 },
      { path: 'app/db' },
      { path: 'gone/deleted' },
      { path: 'gone/destroyed' },
      { path: 'missing' },
      { path: 'app/db', version: 9 },
      { path: 'app/db', version: '1' },
    ];
    const response = await readMany(env, { requests: items });
    expect(response.status).toBe(200);
    const { responses } = dataOf(response);
    expect(responses.map((item: { path: string }) => item.path)).toEqual(items.map((item) => item.path));
    for (const [index, item] of items.entries()) {
      const query: Record<string, string> = item.version === undefined ? {} : { version: String(item.version) };
      const get = await env.handle({ method: 'GET', path: `data/${item.path}`, query });
      const expected = get.body && 'data' in get.body ? { data: get.body.data } : { errors: get.body?.errors };
      expect(responses[index]).toEqual({ path: item.path, status: get.status, ...expected });
    }
    expect(responses[0]).toMatchObject({ status: 200, data: { data: { key: 'k1' } } });
    expect(responses[2]).toMatchObject({
      status: 404,
      data: { data: null, metadata: { deletion_time: expect.any(String) } },
    });
    expect(responses[3]).toMatchObject({ status: 404, data: { data: null, metadata: { destroyed: true } } });
    expect(responses[4]).toEqual({ path: 'missing', status: 404, errors: [] });
  });

  it('the typed readMany answers the same', async () => {
    const env = await fixture();
    const requests = [{ path: 'app/db' }, { path: 'app/api', version: 2 }, { path: 'missing' }];
    expect(await env.kv.readMany(requests)).toEqual(dataOf(await readMany(env, { requests })));
    await expect(env.kv.readMany([{ path: 'a/' }])).rejects.toThrow('requests[0]');
  });

  it('a token that may read one of two paths gets that one; the other is refused, revealing nothing', async () => {
    const env = await fixture();
    const body = {
      requests: [{ path: 'app/db' }, { path: 'app/api' }, { path: 'nothing/here' }, { path: 'gone/destroyed' }],
    };
    const { responses } = dataOf(await readMany(env, body, only('data/app/db')));
    expect(responses[0]).toMatchObject({ path: 'app/db', status: 200, data: { data: { password: 'two' } } });
    const refused = { status: 403, errors: ['permission denied'] };
    expect(responses.slice(1)).toEqual([
      { path: 'app/api', ...refused },
      { path: 'nothing/here', ...refused },
      { path: 'gone/destroyed', ...refused },
    ]);
  });

  it('asks exactly read on data/<path> per item, and nothing on read-many itself', async () => {
    const env = await fixture();
    const asked: CapabilityCheck[] = [];
    const authorize = (check: CapabilityCheck) => {
      asked.push(check);
      return true;
    };
    await readMany(env, { requests: [{ path: 'app/db' }, { path: 'app/api', version: 1 }] }, authorize);
    expect(asked.map(({ capability, path }) => `${capability} ${path}`).sort()).toEqual([
      'read data/app/api',
      'read data/app/db',
    ]);
  });

  it('a caller refused every item gets the plain 403 of any refused request, whether the keys exist or not', async () => {
    const env = await fixture();
    const none = () => false;
    const existing = await readMany(env, { requests: [{ path: 'app/db' }, { path: 'app/api' }] }, none);
    const missing = await readMany(env, { requests: [{ path: 'no/such' }, { path: 'nor/this' }] }, none);
    expect(existing).toEqual({ status: 403, body: { errors: ['permission denied'] } });
    expect(missing).toEqual(existing);
  });

  it.each([
    ['no requests', {}, 'missing requests'],
    ['requests that are no list', { requests: 'app/db' }, 'must be a list'],
    ['an empty list', { requests: [] }, 'empty'],
    ['101 items', { requests: Array.from({ length: 101 }, () => ({ path: 'app/db' })) }, 'at most 100'],
    ['an item that is no object', { requests: [{ path: 'app/db' }, 'app/api'] }, 'requests[1]'],
    ['an item without a path', { requests: [{ version: 1 }] }, 'requests[0]'],
    ['a folder path', { requests: [{ path: 'app/db' }, { path: 'app/' }] }, 'requests[1]'],
    ['a path with ..', { requests: [{ path: 'app/../db' }] }, 'requests[0]'],
    [
      'a version that is no integer',
      { requests: [{ path: 'app/db', version: 'two' }] },
      'requests[0]: invalid value for field "version"',
    ],
    ['a version that is an object', { requests: [{ path: 'app/db' }, { path: 'a', version: {} }] }, 'requests[1]'],
    ['an unknown item field', { requests: [{ path: 'app/db', versoin: 2 }] }, 'requests[0]'],
  ])('refuses %s with a 400 naming what is wrong', async (_name, body, fragment) => {
    const env = await fixture();
    expectError(await readMany(env, body), 400, fragment);
    expectError(await readMany(env, body, () => true), 400, fragment);
  });

  it('takes 100 items', async () => {
    const env = await fixture();
    const requests = Array.from({ length: 100 }, (_, index) => ({ path: index % 2 ? 'app/db' : 'app/api' }));
    const { responses } = dataOf(await readMany(env, { requests }));
    expect(responses).toHaveLength(100);
    expect(responses.every((item: { status: number }) => item.status === 200)).toBe(true);
  });

  it('only POST and PUT reach it', async () => {
    const env = await fixture();
    expect((await env.handle({ method: 'GET', path: 'read-many' })).status).toBe(405);
  });
});
