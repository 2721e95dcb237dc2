import { describe, expect, it } from 'vitest';
import { dataOf, expectError, expectPlain404, setup } from './helpers.js';

const keysOf = async (response: Promise<Parameters<typeof dataOf>[0]>) => dataOf(await response).keys as string[];

describe('LIST metadata (decision 6)', () => {
  it('63-64: sorted names; exclude_deleted drops keys whose current version is deleted, never folders', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    await env.W('bar', { a: 1 });
    await env.W('baz', { a: 1 });
    await env.W('baz', { a: 2 });
    expect(await keysOf(env.LIST(''))).toEqual(['bar', 'baz', 'foo']);
    expect(await keysOf(env.LIST('', { exclude_deleted: 'false' }))).toEqual(['bar', 'baz', 'foo']);
    await env.versions('delete', 'foo', [1]);
    expect(await keysOf(env.LIST(''))).toEqual(['bar', 'baz', 'foo']);
    expect(await keysOf(env.LIST('', { exclude_deleted: 'true' }))).toEqual(['bar', 'baz']);
    await env.versions('delete', 'baz', [1]);
    expect(await keysOf(env.LIST('', { exclude_deleted: 'true' }))).toEqual(['bar', 'baz']);
    await env.W('dir/nested-secret', { a: 1 });
    expect(await keysOf(env.LIST('', { exclude_deleted: 'true' }))).toEqual(['bar', 'baz', 'dir/']);
  });

  it('65: an empty mount answers 404∅; a filter that empties the list too', async () => {
    const env = setup();
    expectPlain404(await env.LIST(''));
    await env.W('single-version', { a: 1 });
    await env.DEL('single-version');
    expectPlain404(await env.LIST('', { exclude_deleted: 'true' }));
    expect(await keysOf(env.LIST('', { exclude_deleted: 'false' }))).toEqual(['single-version']);
    expect(
      (await env.handle({ method: 'GET', path: 'metadata/single-version', query: { exclude_deleted: 'true' } })).status,
    ).toBe(200);
  });

  it('80: exclude_deleted also drops a key whose current version only has a future deletion time', async () => {
    const env = setup();
    await env.config({ delete_version_after: '1h' });
    await env.W('foo', { a: 1 });
    expectPlain404(await env.LIST('', { exclude_deleted: 'true' }));
  });

  it('exclude_deleted keeps metadata-only keys and keys with a destroyed head', async () => {
    const env = setup();
    await env.MD('meta-only', { max_versions: 1 });
    await env.W('destroyed', { a: 1 });
    await env.versions('destroy', 'destroyed', [1]);
    expect(await keysOf(env.LIST('', { exclude_deleted: 'true' }))).toEqual(['destroyed', 'meta-only']);
  });

  it('66: a name can be a key and a folder; a leaf lists nothing', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    await env.W('foo/bar', { a: 1 });
    expect(await keysOf(env.LIST(''))).toEqual(['foo', 'foo/']);
    expect(await keysOf(env.LIST('foo'))).toEqual(['bar']);
    expect(await keysOf(env.LIST('foo/'))).toEqual(['bar']);
    expectPlain404(await env.LIST('foo/bar'));
  });

  it('67: GET ?list=true is the same request as LIST, with the list capability and a trailing slash', async () => {
    const env = setup();
    await env.W('a/b', { x: 1 });
    const asked: unknown[] = [];
    const authorize = (check: unknown) => {
      asked.push(check);
      return true;
    };
    const viaGet = await env.handle({ method: 'GET', path: 'metadata/a', query: { list: 'true' }, authorize });
    expect(viaGet).toEqual(await env.LIST('a'));
    expect(asked).toEqual([
      { capability: 'list', path: 'metadata/a/' },
      { capability: 'list', path: 'metadata/a/b', listing: true },
    ]);
  });

  it('folders disappear with their last key; every key with metadata is listed', async () => {
    const env = setup();
    await env.W('dir/x', { a: 1 });
    await env.MD('meta-only', { max_versions: 2 });
    expect(await keysOf(env.LIST(''))).toEqual(['dir/', 'meta-only']);
    await env.handle({ method: 'DELETE', path: 'metadata/dir/x' });
    expect(await keysOf(env.LIST(''))).toEqual(['meta-only']);
  });

  it('sorts by code point (UTF-8 byte order), not by UTF-16 unit', async () => {
    const env = setup();
    for (const name of ['\u{1F600}', '\uFF21', 'B', 'a']) await env.W(name, { name });
    expect(await keysOf(env.LIST(''))).toEqual(['B', 'a', '\uFF21', '\u{1F600}']);
  });

  it('decision 6: after and limit page through the names', async () => {
    const env = setup();
    for (const name of ['a', 'b', 'c', 'd/x', 'e']) await env.W(name, { name });
    expect(await keysOf(env.LIST('', { limit: '2' }))).toEqual(['a', 'b']);
    expect(await keysOf(env.LIST('', { after: 'b', limit: '2' }))).toEqual(['c', 'd/']);
    expect(await keysOf(env.LIST('', { after: 'd/' }))).toEqual(['e']);
    expect(await keysOf(env.LIST('', { after: 'bb' }))).toEqual(['c', 'd/', 'e']);
    expect(await keysOf(env.LIST('', { limit: '0' }))).toEqual(['a', 'b', 'c', 'd/', 'e']);
    expectPlain404(await env.LIST('', { after: 'e' }));
    expectError(await env.LIST('', { limit: 'ten' }), 400, 'limit');
  });

  it('limit counts names after the exclude_deleted filter', async () => {
    const env = setup();
    for (const name of ['a', 'b', 'c']) await env.W(name, { name });
    await env.DEL('a');
    expect(await keysOf(env.LIST('', { exclude_deleted: 'true', limit: '1' }))).toEqual(['b']);
  });
});
