import { describe, expect, it } from 'vitest';
import { KvEngine } from '../../src/kv/index.js';
import { testStorage } from '../support/test-storage.js';
import { dataOf, expectError, expectPlain404, setup, VERSION_METADATA_KEYS } from './helpers.js';

const write = async (env: ReturnType<typeof setup>, path: string, times: number) => {
  for (let i = 1; i <= times; i++) expect((await env.W(path, { n: i })).status).toBe(200);
};

describe('data write and read', () => {
  it('9: a write answers the version metadata with the key custom_metadata; cas=1 then gives version 2', async () => {
    const env = setup();
    expect((await env.MD('foo', { custom_metadata: { foo: 'abc', bar: 'def' } })).status).toBe(204);
    const first = await env.W('foo', { bar: 'baz' });
    expect(first.status).toBe(200);
    expect(Object.keys(dataOf(first)).sort()).toEqual(VERSION_METADATA_KEYS);
    expect(dataOf(first)).toMatchObject({
      version: 1,
      destroyed: false,
      deletion_time: '',
      custom_metadata: { foo: 'abc', bar: 'def' },
    });
    expect(dataOf(await env.W('foo', { bar: 'baz1' }, 1)).version).toBe(2);
  });

  it('10: cas=0 creates, and fails once the key exists', async () => {
    const env = setup();
    expect((await env.W('foo', { bar: 'baz' }, 0)).status).toBe(200);
    expectError(
      await env.W('foo', { bar: 'baz' }, 0),
      400,
      'check-and-set parameter did not match the current version',
    );
  });

  it('11: reading a missing key answers 404 with an empty error list', async () => {
    expectPlain404(await setup().R('foo'));
  });

  it('12: a read answers the data and exactly the five metadata fields', async () => {
    const env = setup();
    await env.W('foo', { bar: 'baz' });
    env.clock.advance(30);
    const read = dataOf(await env.R('foo'));
    expect(read.data).toEqual({ bar: 'baz' });
    expect(Object.keys(read.metadata).sort()).toEqual(VERSION_METADATA_KEYS);
    expect(read.metadata).toEqual({
      created_time: '2026-03-01T12:00:00Z',
      custom_metadata: null,
      deletion_time: '',
      destroyed: false,
      version: 1,
    });
  });

  it('13: after DELETE data/foo a read answers 404 with the metadata and null data', async () => {
    const env = setup();
    await env.W('foo', { bar: 'baz' });
    expect(await env.DEL('foo')).toEqual({ status: 204 });
    const read = await env.R('foo');
    expect(read.status).toBe(404);
    expect(dataOf(read)).toEqual({
      data: null,
      metadata: {
        created_time: '2026-03-01T12:00:00Z',
        custom_metadata: null,
        deletion_time: '2026-03-01T12:00:00Z',
        destroyed: false,
        version: 1,
      },
    });
  });

  it.each([
    ['14: write', async (env: ReturnType<typeof setup>) => env.W('foo', { n: 11 })],
    ['15: patch', async (env: ReturnType<typeof setup>) => env.PATCH('foo', { data: { n: 11 } })],
  ])('%s: lowering max_versions prunes on the next change, many versions at once', async (_name, change) => {
    const env = setup();
    await write(env, 'foo', 10);
    await env.MD('foo', { max_versions: 2 });
    expect(Object.keys(dataOf(await env.MR('foo')).versions)).toHaveLength(10);
    expect(dataOf(await change(env)).version).toBe(11);
    for (let v = 1; v <= 9; v++) expectPlain404(await env.R('foo', v));
    const meta = dataOf(await env.MR('foo'));
    expect(Object.keys(meta.versions)).toEqual(['10', '11']);
    expect(meta.oldest_version).toBe(10);
    expect(dataOf(await env.R('foo', 11)).data).toEqual({ n: 11 });
  });

  it('16: another engine over the same storage reads every key back', async () => {
    const storage = testStorage();
    const env = setup({ storage });
    for (let i = 0; i < 10; i++) await env.W(`key${i}`, { i });
    const reopened = new KvEngine({ storage });
    for (let i = 0; i < 10; i++)
      expect(dataOf(await reopened.handle({ method: 'GET', path: `data/key${i}` })).data).toEqual({ i });
  });

  it('17: a write over a soft-deleted head with cas=current succeeds', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    await env.DEL('foo');
    expect(dataOf(await env.W('foo', { a: 2 }, 1)).version).toBe(2);
    expect(dataOf(await env.R('foo')).data).toEqual({ a: 2 });
  });

  it('18: cas=0 fails on a soft-deleted key', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    await env.DEL('foo');
    expectError(await env.W('foo', { a: 2 }, 0), 400, 'did not match');
  });

  it('18b: cas=0 fails on a key whose versions are all destroyed', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    await env.versions('destroy', 'foo', [1]);
    expectError(await env.W('foo', { a: 2 }, 0), 400, 'did not match');
  });

  it('19: a missing version answers 404∅; version 0 and -1 read the current one', async () => {
    const env = setup();
    await write(env, 'foo', 2);
    expectPlain404(await env.R('foo', 99));
    expect(dataOf(await env.R('foo', 0)).metadata.version).toBe(2);
    expect(dataOf(await env.R('foo', -1)).metadata.version).toBe(2);
    expect(dataOf(await env.R('foo', 1)).data).toEqual({ n: 1 });
    expectError(await env.R('foo', 'two'), 400, 'version');
  });

  it('20: a metadata-only key reads as 404∅ and accepts cas=0', async () => {
    const env = setup();
    await env.MD('foo', { max_versions: 5 });
    expectPlain404(await env.R('foo'));
    expect(dataOf(await env.W('foo', { a: 1 }, 0)).version).toBe(1);
  });

  it('21: a write without data answers 400 "no data provided"', async () => {
    const env = setup();
    expectError(await env.handle({ method: 'POST', path: 'data/foo', body: {} }), 400, 'no data provided');
    expectError(await env.handle({ method: 'POST', path: 'data/foo' }), 400, 'no data provided');
    expectPlain404(await env.MR('foo'));
  });

  it.each([null, 'text', 5, [1, 2]])('decision 5: data %j is a 400 and writes nothing', async (data) => {
    const env = setup();
    expectError(await env.W('foo', data), 400, 'data');
    expectPlain404(await env.MR('foo'));
  });

  it('22: a non-numeric cas answers 400 "error parsing check-and-set parameter"', async () => {
    expectError(await setup().W('foo', { a: 1 }, 'abc'), 400, 'error parsing check-and-set parameter');
  });

  it('23: cas=null counts as 0; numeric strings and floats convert', async () => {
    const env = setup();
    expect(dataOf(await env.W('foo', { a: 1 }, null)).version).toBe(1);
    expect(dataOf(await env.W('foo', { a: 2 }, '1')).version).toBe(2);
    expect(dataOf(await env.W('foo', { a: 3 }, 2.0)).version).toBe(3);
    expectError(await env.W('foo', { a: 4 }, -1), 400, 'did not match');
  });

  it('the missing-data error comes before the cas check', async () => {
    const env = setup();
    await env.config({ cas_required: true });
    expectError(await env.handle({ method: 'POST', path: 'data/foo', body: {} }), 400, 'no data provided');
  });

  it('25: ten versions are kept by default; oldest_version moves at the pruning point', async () => {
    const env = setup();
    await write(env, 'foo', 9);
    expect(dataOf(await env.MR('foo')).oldest_version).toBe(0);
    await write(env, 'foo', 1);
    let meta = dataOf(await env.MR('foo'));
    expect([meta.oldest_version, Object.keys(meta.versions).length]).toEqual([1, 10]);
    await write(env, 'foo', 1);
    meta = dataOf(await env.MR('foo'));
    expect([meta.oldest_version, Object.keys(meta.versions).length]).toEqual([2, 10]);
    expectPlain404(await env.R('foo', 1));
  });

  it('26: decision 2: the key max_versions (2) wins over the engine (5)', async () => {
    const env = setup();
    await env.config({ max_versions: 5 });
    await env.MD('foo', { max_versions: 2 });
    await write(env, 'foo', 7);
    expect(Object.keys(dataOf(await env.MR('foo')).versions)).toEqual(['6', '7']);
  });

  it.each([
    [3, 5, 5],
    [9, 2, 2],
    [0, 2, 2],
    [4, 0, 4],
    [0, 0, 10],
  ])('decision 2 table: engine %i, key %i keeps %i', async (engine, key, kept) => {
    const env = setup();
    await env.config({ max_versions: engine });
    await env.MD('foo', { max_versions: key, cas_required: false });
    await write(env, 'foo', 12);
    expect(Object.keys(dataOf(await env.MR('foo')).versions)).toHaveLength(kept);
  });

  it('max_versions 1: every write removes the previous version', async () => {
    const env = setup();
    await env.MD('foo', { max_versions: 1 });
    await write(env, 'foo', 1);
    expect(dataOf(await env.MR('foo')).oldest_version).toBe(1);
    await write(env, 'foo', 1);
    const meta = dataOf(await env.MR('foo'));
    expect([meta.oldest_version, Object.keys(meta.versions)]).toEqual([2, ['2']]);
  });

  it('27: engine cas_required makes a write without cas a 400', async () => {
    const env = setup();
    await env.config({ cas_required: true });
    expectError(await env.W('foo', { a: 1 }), 400, 'check-and-set parameter required for this call');
    expect((await env.W('foo', { a: 1 }, 0)).status).toBe(200);
  });

  it('key cas_required makes cas mandatory even when the engine does not require it', async () => {
    const env = setup();
    await env.MD('foo', { cas_required: true });
    expectError(await env.W('foo', { a: 1 }), 400, 'check-and-set parameter required for this call');
    expect((await env.W('foo', { a: 1 }, 0)).status).toBe(200);
  });

  it('a key cas_required false cannot weaken the engine requirement', async () => {
    const env = setup();
    await env.config({ cas_required: true });
    await env.MD('foo', { cas_required: false });
    expectError(await env.W('foo', { a: 1 }), 400, 'required');
  });

  it('a data write sets updated_time to the new version created_time', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    env.clock.advance(60);
    await env.W('foo', { a: 2 });
    const meta = dataOf(await env.MR('foo'));
    expect(meta.updated_time).toBe('2026-03-01T12:01:00Z');
    expect(meta.created_time).toBe('2026-03-01T12:00:00Z');
  });

  it('stores the data as given, keys such as __proto__ included, and never lets them reach a prototype', async () => {
    const env = setup();
    const data = JSON.parse(
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},"n":1.5,"deep":{"a":[1,{"b":null}]}}',
    );
    expect((await env.W('foo', data)).status).toBe(200);
    expect(JSON.stringify(dataOf(await env.R('foo')).data)).toBe(JSON.stringify(data));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('custom_metadata set later appears on reads of older versions', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    await env.MD('foo', { custom_metadata: { owner: 'team-a' } });
    expect(dataOf(await env.R('foo')).metadata.custom_metadata).toEqual({ owner: 'team-a' });
  });

  it('keys with dots in their names are ordinary (decision 7)', async () => {
    const env = setup();
    for (const name of ['v1.2', 'a..b', '.hidden', 'dir/.env']) {
      expect((await env.W(name, { name })).status).toBe(200);
      expect(dataOf(await env.R(name)).data).toEqual({ name });
    }
  });
});
