import { describe, expect, it } from 'vitest';
import { dataOf, expectError, expectPlain404, setup, VERSION_METADATA_KEYS } from './helpers.js';

describe('subkeys', () => {
  it('68: a missing key answers 404', async () => {
    expectPlain404(await setup().SUB('foo'));
  });

  it('69: the nested example; data has exactly subkeys and metadata', async () => {
    const env = setup();
    await env.W('foo', { foo: 'x', bar: { a: { c: { d: 'x' } }, b: {} }, baz: { e: 3.14 }, quux: 123, quuz: ['x'] });
    const response = await env.SUB('foo');
    expect(response.status).toBe(200);
    const body = dataOf(response);
    expect(Object.keys(body).sort()).toEqual(['metadata', 'subkeys']);
    expect(Object.keys(body.metadata).sort()).toEqual(VERSION_METADATA_KEYS);
    expect(body.subkeys).toEqual({
      foo: null,
      bar: { a: { c: { d: null } }, b: null },
      baz: { e: null },
      quux: null,
      quuz: null,
    });
  });

  it('70-71: version selects the version; a missing one answers 404∅', async () => {
    const env = setup();
    await env.W('foo', { foo: 1 });
    await env.W('foo', { foo: 1, bar: 2 });
    expect(dataOf(await env.SUB('foo', { version: '1' })).subkeys).toEqual({ foo: null });
    expect(dataOf(await env.SUB('foo')).subkeys).toEqual({ foo: null, bar: null });
    expectPlain404(await env.SUB('foo', { version: '10' }));
  });

  it('72: depth', async () => {
    const env = setup();
    await env.W('foo', { foo: { bar: { baz: 123 } } });
    expectError(await env.SUB('foo', { depth: 'not-an-integer' }), 400, 'depth');
    expect(dataOf(await env.SUB('foo')).subkeys).toEqual({ foo: { bar: { baz: null } } });
    expect(dataOf(await env.SUB('foo', { depth: '0' })).subkeys).toEqual({ foo: { bar: { baz: null } } });
    expect(dataOf(await env.SUB('foo', { depth: '2' })).subkeys).toEqual({ foo: { bar: null } });
    expect(dataOf(await env.SUB('foo', { depth: '1' })).subkeys).toEqual({ foo: null });
    expect(dataOf(await env.SUB('foo', { depth: '-1' })).subkeys).toEqual({ foo: null });
  });

  it('73: empty data gives empty subkeys', async () => {
    const env = setup();
    await env.W('foo', {});
    expect(dataOf(await env.SUB('foo')).subkeys).toEqual({});
  });

  it('74-75: deleted and destroyed versions answer 404 with null subkeys and the metadata', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    await env.DEL('foo');
    let response = await env.SUB('foo');
    expect(response.status).toBe(404);
    expect(dataOf(response).subkeys).toBeNull();
    expect(dataOf(response).metadata.deletion_time).not.toBe('');
    await env.versions('destroy', 'foo', [1]);
    response = await env.SUB('foo');
    expect(response.status).toBe(404);
    expect(dataOf(response).metadata.destroyed).toBe(true);
  });

  it('76: after a PATCH, the union of the keys; custom_metadata is included', async () => {
    const env = setup();
    await env.MD('foo', { custom_metadata: { team: 'a' } });
    await env.W('foo', { foo: 'bar' });
    await env.PATCH('foo', { data: { baz: { qux: 1 } } });
    const body = dataOf(await env.SUB('foo'));
    expect(body.subkeys).toEqual({ foo: null, baz: { qux: null } });
    expect(body.metadata.custom_metadata).toEqual({ team: 'a' });
  });
});
