import { describe, expect, it } from 'vitest';
import { dataOf, expectError, expectPlain404, JSON_PATCH, setup } from './helpers.js';

describe('PATCH data', () => {
  it('28: a missing or metadata-only key answers 404 without a body', async () => {
    const env = setup();
    expect(await env.PATCH('foo', { data: { a: 1 } })).toEqual({ status: 404 });
    await env.MD('foo', { max_versions: 5 });
    expect(await env.PATCH('foo', { data: { a: 1 } })).toEqual({ status: 404 });
  });

  it('29: cas rules apply as on a write', async () => {
    const env = setup();
    await env.config({ cas_required: true });
    await env.W('foo', { a: 1 }, 0);
    expectError(await env.PATCH('foo', { data: { b: 2 } }), 400, 'check-and-set parameter required for this call');
    expectError(
      await env.PATCH('foo', { data: { b: 2 }, options: { cas: 2 } }),
      400,
      'check-and-set parameter did not match the current version',
    );
    expectError(await env.PATCH('foo', { data: { b: 2 }, options: { cas: 0 } }), 400, 'did not match');
    expect(dataOf(await env.PATCH('foo', { data: { b: 2 }, options: { cas: 1 } })).version).toBe(2);
  });

  it('the 404 of a missing key comes before the cas check', async () => {
    const env = setup();
    await env.config({ cas_required: true });
    expect(await env.PATCH('foo', { data: { a: 1 } })).toEqual({ status: 404 });
  });

  it('30: a PATCH without data answers 400 "no data provided"', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    expectError(await env.PATCH('foo', {}), 400, 'no data provided');
  });

  it('31: the merge patch of Vault test', async () => {
    const env = setup();
    await env.W('foo', { bar: 'baz', quux: { quuz: ['1', '2', '3'] } });
    const patched = await env.PATCH('foo', {
      data: { abc: 123, quux: { def: 456, quuz: ['1', '2', '3', '4'] } },
      options: { cas: 1 },
    });
    expect(patched.status).toBe(200);
    expect(dataOf(patched).version).toBe(2);
    expect(dataOf(await env.R('foo')).data).toEqual({
      bar: 'baz',
      abc: 123,
      quux: { def: 456, quuz: ['1', '2', '3', '4'] },
    });
  });

  it('32: a deleted head answers 404 with flat metadata', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    await env.DEL('foo');
    const response = await env.PATCH('foo', { data: { a: 2 } });
    expect(response.status).toBe(404);
    expect(dataOf(response)).toMatchObject({ version: 1, deletion_time: '2026-03-01T12:00:00Z', destroyed: false });
    expect(dataOf(response)).not.toHaveProperty('metadata');
  });

  it('33: a destroyed head answers 404 with flat metadata', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    await env.versions('destroy', 'foo', [1]);
    const response = await env.PATCH('foo', { data: { a: 2 } });
    expect(response.status).toBe(404);
    expect(dataOf(response)).toMatchObject({ version: 1, destroyed: true });
  });

  it('a head past its automatic deletion time answers 404 with flat metadata', async () => {
    const env = setup();
    await env.config({ delete_version_after: '1m' });
    await env.W('foo', { a: 1 });
    env.clock.advance(60);
    const response = await env.PATCH('foo', { data: { a: 2 } });
    expect(response.status).toBe(404);
    expect(dataOf(response).deletion_time).toBe('2026-03-01T12:01:00Z');
  });

  it('34: null removes a member; an empty patch creates an identical new version', async () => {
    const env = setup();
    await env.W('foo', { bar: 1, baz: 2 });
    await env.PATCH('foo', { data: { bar: null } });
    expect(dataOf(await env.R('foo')).data).toEqual({ baz: 2 });
    expect(dataOf(await env.PATCH('foo', { data: {} })).version).toBe(3);
    expect(dataOf(await env.R('foo', 3)).data).toEqual({ baz: 2 });
  });

  it.each([
    ['application/json', 415],
    ['text/plain', 415],
  ])('35: Content-Type %s answers %i', async (type, status) => {
    const env = setup();
    await env.W('foo', { a: 1 });
    expect((await env.PATCH('foo', { data: { a: 2 } }, { 'Content-Type': type })).status).toBe(status);
    expect(dataOf(await env.MR('foo')).current_version).toBe(1);
  });

  it('decision 4: a PATCH without Content-Type is 415', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    expect((await env.PATCH('foo', { data: { a: 2 } }, {})).status).toBe(415);
  });

  it('media type parameters are allowed', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    expect(
      (await env.PATCH('foo', { data: { a: 2 } }, { 'content-type': 'Application/Merge-Patch+JSON; charset=utf-8' }))
        .status,
    ).toBe(200);
  });

  it('36: write, PATCH, read', async () => {
    const env = setup();
    await env.W('foo', { bar: 'baz', keep: true });
    await env.PATCH('foo', { data: { bar: 'quux' } });
    expect(dataOf(await env.R('foo')).data).toEqual({ bar: 'quux', keep: true });
  });

  it.each([null, 'text', 7, [1]])('decision 5: merge patch data %j is a 400 and writes nothing', async (data) => {
    const env = setup();
    await env.W('foo', { a: 1 });
    expectError(await env.PATCH('foo', { data }), 400, 'data');
    expect(dataOf(await env.MR('foo')).current_version).toBe(1);
  });

  it('a PATCH follows the same pruning and deletion_time rules as a write', async () => {
    const env = setup();
    await env.config({ delete_version_after: '1h' });
    await env.MD('foo', { max_versions: 1 });
    await env.W('foo', { a: 1 });
    const patched = dataOf(await env.PATCH('foo', { data: { b: 2 } }));
    expect(patched.deletion_time).toBe('2026-03-01T13:00:00Z');
    expect(Object.keys(dataOf(await env.MR('foo')).versions)).toEqual(['2']);
  });
});

describe('PATCH data with RFC 6902 JSON Patch (decision 4)', () => {
  it('applies the operations to the current data, with cas', async () => {
    const env = setup();
    await env.W('foo', { a: 1, list: [1, 2], nested: { x: 1 } });
    const ops = [
      { op: 'test', path: '/a', value: 1 },
      { op: 'replace', path: '/a', value: 10 },
      { op: 'add', path: '/list/-', value: 3 },
      { op: 'remove', path: '/nested/x' },
      { op: 'copy', from: '/list', path: '/copy' },
      { op: 'move', from: '/copy', path: '/moved' },
    ];
    const response = await env.PATCH('foo', { data: ops, options: { cas: 1 } }, JSON_PATCH);
    expect(response.status).toBe(200);
    expect(dataOf(await env.R('foo')).data).toEqual({ a: 10, list: [1, 2, 3], nested: {}, moved: [1, 2, 3] });
  });

  it.each([
    ['a failing test', [{ op: 'test', path: '/a', value: 2 }], 'is not the expected value'],
    ['an unresolvable path', [{ op: 'remove', path: '/missing' }], 'path "/missing" does not exist'],
    ['an unknown op', [{ op: 'merge', path: '/a', value: 1 }], 'data.0'],
    ['a missing value', [{ op: 'add', path: '/b' }], 'value'],
    ['a path that is no pointer', [{ op: 'add', path: 'b', value: 1 }], 'JSON pointer'],
    ['an object instead of operations', { a: 2 }, 'data'],
    ['a result that is no object', [{ op: 'replace', path: '', value: [1] }], 'must be a JSON object'],
    ['a write through __proto__', [{ op: 'add', path: '/__proto__/polluted', value: 1 }], '__proto__'],
  ])('%s is a 400 that writes nothing and does not echo the data', async (_name, data, fragment) => {
    const env = setup();
    await env.W('foo', { a: 1, secret: 's3cr3t' });
    const response = await env.PATCH('foo', { data }, JSON_PATCH);
    expectError(response, 400, fragment);
    expect(JSON.stringify(response)).not.toContain('s3cr3t');
    expect(dataOf(await env.MR('foo')).current_version).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('has the same 404 rules as merge patch', async () => {
    const env = setup();
    expect(await env.PATCH('foo', { data: [] }, JSON_PATCH)).toEqual({ status: 404 });
    await env.W('foo', { a: 1 });
    await env.DEL('foo');
    expect((await env.PATCH('foo', { data: [] }, JSON_PATCH)).status).toBe(404);
    expectPlain404(await env.R('foo', 2));
  });
});
