import { describe, expect, it } from 'vitest';
import { InvalidRequest } from '../../src/lib/errors.js';
import { subkeys } from '../../src/kv/values/subkeys.js';
import { dataOf, expectError, JSON_PATCH, setup } from './helpers.js';

/** `levels` nested objects: nested(2) is {n: {n: 1}}. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = { n: value };
  return value;
}

const copies = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ op: 'copy', from: '', path: `/c${index}` }));

describe('JSON Patch amplification is refused while applying (issue 18.1)', () => {
  it('refuses the 836-byte request of 22 root copies on a 1 KB secret with a 400 naming the operation', async () => {
    const env = setup();
    await env.W('k', { secret: 'x'.repeat(1000) });
    const body = { data: copies(22) };
    expect(JSON.stringify(body).length).toBeLessThan(900);
    const response = await env.PATCH('k', body, JSON_PATCH);
    // 1 KB doubles ten times before it passes 1 MiB: the eleventh copy is the one refused.
    expectError(
      response,
      400,
      'JSON Patch operation 10 (copy) failed: the result would be larger than the limit of 1048576 bytes',
    );
    expect(dataOf(await env.MR('k')).current_version).toBe(1);
  });

  it('refuses a large value copied many times once the result passes the limit', async () => {
    const env = setup({ maxValueBytes: 64 * 1024 });
    await env.W('k', { big: 'y'.repeat(20_000) });
    const response = await env.PATCH(
      'k',
      { data: Array.from({ length: 500 }, (_, index) => ({ op: 'copy', from: '/big', path: `/b${index}` })) },
      JSON_PATCH,
    );
    expectError(
      response,
      400,
      'JSON Patch operation 2 (copy) failed: the result would be larger than the limit of 65536 bytes',
    );
  });

  it('bounds the number of operations per request', async () => {
    const env = setup();
    await env.W('k', { a: 1 });
    const many = Array.from({ length: 30_000 }, () => ({ op: 'test', path: '/a', value: 1 }));
    expectError(await env.PATCH('k', { data: many }, JSON_PATCH), 400, 'at most 1000 JSON Patch operations');
    const enough = many.slice(0, 1000);
    expect((await env.PATCH('k', { data: enough }, JSON_PATCH)).status).toBe(200);
  });

  it('bounds the work of a copy-and-remove loop that never grows the result', async () => {
    const env = setup({ maxValueBytes: 64 * 1024 });
    await env.W('k', { big: 'z'.repeat(20_000) });
    const loop = Array.from({ length: 100 }, () => [
      { op: 'copy', from: '/big', path: '/twin' },
      { op: 'remove', path: '/twin' },
    ]).flat();
    expectError(await env.PATCH('k', { data: loop }, JSON_PATCH), 400, 'more work than a request may');
  });

  it('applies the same limit to writes and merge patches, and the engine option sets it', async () => {
    const env = setup({ maxValueBytes: 100 });
    expectError(await env.W('k', { v: 'a'.repeat(200) }), 400, 'the data is larger than the limit of 100 bytes');
    expect((await env.W('k', { v: 'a'.repeat(50) })).status).toBe(200);
    expectError(await env.PATCH('k', { data: { w: 'b'.repeat(60) } }), 400, 'larger than the limit of 100 bytes');
    await expect(env.kv.write('k', { v: 'a'.repeat(200) })).rejects.toBeInstanceOf(InvalidRequest);
  });

  it('measures the result exactly: data of exactly the limit is accepted, one byte more is not', async () => {
    const env = setup({ maxValueBytes: 30 });
    await env.W('k', { a: 'x' });
    // {"a":"x","b":"yyyyyyyyyyyyyy"} is 30 bytes.
    expect(
      (await env.PATCH('k', { data: [{ op: 'add', path: '/b', value: 'y'.repeat(14) }] }, JSON_PATCH)).status,
    ).toBe(200);
    expectError(
      await env.PATCH('k', { data: [{ op: 'add', path: '/b', value: 'y'.repeat(15) }] }, JSON_PATCH),
      400,
      'larger than the limit',
    );
    expectError(
      await env.PATCH('k', { data: [{ op: 'add', path: '/c', value: 0 }] }, JSON_PATCH),
      400,
      'larger than the limit',
    );
    expect(dataOf(await env.R('k')).data).toEqual({ a: 'x', b: 'y'.repeat(14) });
    expect(JSON.stringify(dataOf(await env.R('k')).data)).toHaveLength(30);
  });
});

describe('bad JSON Patch operations are 400s naming the operation (issue 18.2)', () => {
  it.each([
    [
      'a move into its own child',
      [{ op: 'move', from: '/a', path: '/a/b' }],
      'operation 0 (move) failed: cannot move "/a" into itself',
    ],
    [
      'a move of the root',
      [{ op: 'move', from: '', path: '/n' }],
      'operation 0 (move) failed: cannot move "" into itself',
    ],
    ['200 root copies', copies(200), '(copy) failed: the result would be larger'],
    [
      'an array index past the end',
      [{ op: 'add', path: '/list/5', value: 1 }],
      'operation 0 (add) failed: path "/list/5" does not exist',
    ],
    ['an index with a leading zero', [{ op: 'replace', path: '/list/01', value: 1 }], 'operation 0 (replace) failed'],
    [
      'a member of a scalar',
      [{ op: 'add', path: '/a/x/y', value: 1 }],
      'operation 0 (add) failed: path "/a/x/y" does not exist',
    ],
    [
      'a bad escape',
      [{ op: 'add', path: '/a~2', value: 1 }],
      'operation 0 (add) failed: "/a~2" has an invalid "~" escape',
    ],
    [
      'the removal of the root',
      [{ op: 'remove', path: '' }],
      'operation 0 (remove) failed: the whole document cannot be removed',
    ],
    [
      'a later bad operation',
      [
        { op: 'add', path: '/z', value: 1 },
        { op: 'copy', from: '/nope', path: '/y' },
      ],
      'operation 1 (copy) failed: path "/nope" does not exist',
    ],
  ])('%s', async (_name, operations, fragment) => {
    const env = setup();
    await env.W('k', { a: 1, list: [1, 2] });
    expectError(await env.PATCH('k', { data: operations }, JSON_PATCH), 400, fragment);
    expect(dataOf(await env.R('k')).data).toEqual({ a: 1, list: [1, 2] });
  });

  it('keeps RFC 6902 semantics: escapes, "-", insertion, add over a member, move to itself, deep test', async () => {
    const env = setup();
    await env.W('k', { 'a/b': 1, 'm~n': 2, list: [1, 3], obj: { x: [1, { y: 2 }] } });
    const response = await env.PATCH(
      'k',
      {
        data: [
          { op: 'test', path: '/a~1b', value: 1 },
          { op: 'test', path: '/obj', value: { x: [1, { y: 2 }] } },
          { op: 'add', path: '/list/1', value: 2 },
          { op: 'add', path: '/list/-', value: 4 },
          { op: 'add', path: '/m~0n', value: 'replaced' },
          { op: 'move', from: '/obj', path: '/obj' },
          { op: 'move', from: '/list/0', path: '/first' },
          { op: 'replace', path: '/obj/x/1/y', value: null },
          { op: 'add', path: '/__proto__', value: { polluted: true } },
        ],
      },
      JSON_PATCH,
    );
    expect(response.status).toBe(200);
    const data = dataOf(await env.R('k')).data;
    expect(data).toEqual(
      JSON.parse(
        '{"a/b":1,"m~n":"replaced","list":[2,3,4],"obj":{"x":[1,{"y":null}]},"first":1,"__proto__":{"polluted":true}}',
      ),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('nesting is bounded after patching and walks over stored data cannot overflow (issue 18.3)', () => {
  it('refuses an add that would make the data deeper than a write body may be', async () => {
    const env = setup();
    await env.W('k', { root: nested(200) });
    const deepPointer = `/root${'/n'.repeat(199)}`;
    const response = await env.PATCH(
      'k',
      { data: [{ op: 'add', path: `${deepPointer}/more`, value: nested(200) }] },
      JSON_PATCH,
    );
    expectError(
      response,
      400,
      'JSON Patch operation 0 (add) failed: the result would be nested more than 255 levels deep',
    );
    expect((await env.SUB('k')).status).toBe(200);
  });

  it('refuses a move or copy that deepens the data', async () => {
    const env = setup();
    await env.W('k', { a: nested(150), b: nested(150) });
    expectError(
      await env.PATCH('k', { data: [{ op: 'move', from: '/a', path: `/b${'/n'.repeat(149)}/x` }] }, JSON_PATCH),
      400,
      '(move) failed: the result would be nested',
    );
    expectError(
      await env.PATCH('k', { data: [{ op: 'copy', from: '/a', path: `/b${'/n'.repeat(149)}/x` }] }, JSON_PATCH),
      400,
      '(copy) failed: the result would be nested',
    );
    expect(dataOf(await env.R('k')).metadata.version).toBe(1);
  });

  it('keeps the data at most as deep as a body may carry after many patches', async () => {
    const env = setup();
    await env.W('k', { n: 1 });
    let pointer = '';
    for (let request = 0; request < 15; request++) {
      const response = await env.PATCH(
        'k',
        { data: [{ op: 'add', path: `${pointer}/d`, value: nested(240) }] },
        JSON_PATCH,
      );
      if (response.status !== 200) {
        expectError(response, 400, 'nested more than 255 levels deep');
        break;
      }
      pointer += `/d${'/n'.repeat(239)}`;
    }
    expect((await env.SUB('k')).status).toBe(200);
    expect((await env.PATCH('k', { data: [{ op: 'add', path: '/fine', value: 1 }] }, JSON_PATCH)).status).toBe(200);
  });

  it('computes subkeys of data far deeper than the stack allows, iteratively', () => {
    const deep = nested(100_000) as Record<string, unknown>;
    let node: unknown = subkeys(deep, 0);
    let levels = 0;
    while (node !== null && typeof node === 'object') {
      node = (node as Record<string, unknown>).n;
      levels++;
    }
    expect(levels).toBe(100_000);
    expect(subkeys({ a: { b: { c: 1 } }, d: 2 }, 2)).toEqual({ a: { b: null }, d: null });
  });
});
