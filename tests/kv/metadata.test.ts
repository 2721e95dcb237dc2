import { describe, expect, it } from 'vitest';
import { dataOf, errorsOf, expectError, expectPlain404, setup } from './helpers.js';

const NOW = '2026-03-01T12:00:00Z';

describe('metadata write, read and delete', () => {
  it('45: settings, cas enforcement, then lowering max_versions prunes on the next write', async () => {
    const env = setup();
    await env.MD('foo', {
      max_versions: 2,
      cas_required: true,
      delete_version_after: '5m',
      custom_metadata: { foo: 'abc', bar: '123' },
    });
    expect(dataOf(await env.MR('foo'))).toMatchObject({
      max_versions: 2,
      cas_required: true,
      delete_version_after: '5m0s',
      custom_metadata: { foo: 'abc', bar: '123' },
    });
    expectError(await env.W('foo', { a: 1 }), 400, 'check-and-set parameter required for this call');
    await env.MD('foo', { max_versions: 3 });
    for (const cas of [0, 1, 2]) expect(dataOf(await env.W('foo', { cas }, cas)).version).toBe(cas + 1);
    await env.MD('foo', { max_versions: 1, cas_required: false });
    expect(dataOf(await env.W('foo', { a: 4 })).version).toBe(4);
    const meta = dataOf(await env.MR('foo'));
    expect([meta.current_version, meta.oldest_version, Object.keys(meta.versions)]).toEqual([4, 4, ['4']]);
  });

  it('46: DELETE metadata removes the key, every version and their data; a new write starts at 1', async () => {
    const env = setup();
    for (let i = 0; i < 6; i++) await env.W('foo', { i });
    await env.W('other', { keep: true });
    expect(await env.handle({ method: 'DELETE', path: 'metadata/foo' })).toEqual({ status: 204 });
    expectPlain404(await env.R('foo'));
    expectPlain404(await env.MR('foo'));
    const blobFolders = await env.storage.list('kv/versions/');
    let blobs = 0;
    for (const folder of blobFolders) blobs += (await env.storage.list(`kv/versions/${folder}`)).length;
    expect(blobs).toBe(1);
    expect(dataOf(await env.W('foo', { again: true }, 0)).version).toBe(1);
  });

  it('DELETE metadata of a missing key answers 204', async () => {
    expect(await setup().handle({ method: 'DELETE', path: 'metadata/nope' })).toEqual({ status: 204 });
  });

  it('47: six bad custom_metadata entries give one 400 listing all of them, and nothing is created', async () => {
    const env = setup();
    const response = await env.MD('foo', {
      custom_metadata: {
        long_value: 'v'.repeat(513),
        ['k'.repeat(129)]: 'x',
        '': 'empty key',
        empty_value: '',
        'unprint\u200bable': 'x',
        foo: 'unprint\u200bable',
      },
    });
    expect(response.status).toBe(400);
    const message = errorsOf(response)[0] as string;
    expect(message).toContain('6 errors occurred');
    expect(message).toContain('length of value for key "long_value" is 513 but must be 0 < len(value) <= 512');
    expect(message).toContain('is 129 but must be 0 < len(key) <= 128');
    expect(message).toContain('length of key "" is 0');
    expect(message).toContain('length of value for key "empty_value" is 0');
    expect(message).toContain('key "unprint\\u200bable" contains unprintable characters');
    expect(message).toContain('value for key "foo" contains unprintable characters');
    expectPlain404(await env.MR('foo'));
  });

  it('lengths are counted in UTF-8 bytes', async () => {
    const env = setup();
    expectError(await env.MD('foo', { custom_metadata: { k: 'é'.repeat(257) } }), 400, 'is 514');
    expect((await env.MD('foo', { custom_metadata: { k: 'é'.repeat(256), 'with space': 'a b' } })).status).toBe(204);
  });

  it.each([{ foo: { bar: 'baz' } }, { foo: ['a'] }, { foo: null }])(
    '48: custom_metadata %j answers 400 "got unconvertible type"',
    async (custom) => {
      const env = setup();
      expectError(await env.MD('foo', { custom_metadata: custom }), 400, 'got unconvertible type');
      expectPlain404(await env.MR('foo'));
    },
  );

  it('custom_metadata that is not a map answers 400', async () => {
    expectError(await setup().MD('foo', { custom_metadata: 'text' }), 400, 'custom_metadata');
  });

  it('numbers and booleans convert to text as in Vault', async () => {
    const env = setup();
    await env.MD('foo', { custom_metadata: { n: 12, t: true, f: false } });
    expect(dataOf(await env.MR('foo')).custom_metadata).toEqual({ n: '12', t: '1', f: '0' });
  });

  it('49: 65 keys answer 400 with the count, and nothing is created', async () => {
    const env = setup();
    const custom = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, 'v']));
    const response = await env.MD('foo', { custom_metadata: custom });
    expectError(response, 400, '1 error occurred');
    expectError(response, 400, 'payload must contain at most 64 keys, provided 65');
    expectPlain404(await env.MR('foo'));
    const sixtyFour = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, 'v']));
    expect((await env.MD('foo', { custom_metadata: sixtyFour })).status).toBe(204);
  });

  it('50: empty custom_metadata creates the key and reads back as null', async () => {
    const env = setup();
    expect((await env.MD('foo', { custom_metadata: {} })).status).toBe(204);
    expect(dataOf(await env.MR('foo')).custom_metadata).toBeNull();
  });

  it('51: only the fields sent change; custom_metadata is replaced wholesale', async () => {
    const env = setup();
    await env.MD('foo', { max_versions: 5, cas_required: true });
    expect(dataOf(await env.MR('foo')).custom_metadata).toBeNull();
    await env.MD('foo', { cas_required: false, custom_metadata: { foo: 'a', bar: 'b' } });
    expect(dataOf(await env.MR('foo'))).toMatchObject({
      max_versions: 5,
      cas_required: false,
      custom_metadata: { foo: 'a', bar: 'b' },
    });
    await env.MD('foo', { custom_metadata: { baz: 'c' } });
    expect(dataOf(await env.MR('foo'))).toMatchObject({ cas_required: false, custom_metadata: { baz: 'c' } });
    await env.MD('foo', { max_versions: 20 });
    expect(dataOf(await env.MR('foo'))).toMatchObject({ max_versions: 20, custom_metadata: { baz: 'c' } });
    await env.MD('foo', { delete_version_after: 0 });
    expect(dataOf(await env.MR('foo')).delete_version_after).toBe('0s');
  });

  it('59: a write with none of the four fields answers 204 and creates nothing', async () => {
    const env = setup();
    expect(await env.MD('foo', {})).toEqual({ status: 204 });
    // Fields it does not know earn Vault's warning, which a 204 cannot carry.
    const ignored = 'Endpoint ignored these unrecognized parameters: [current_version unknown]';
    expect(await env.MD('foo', { unknown: 1, current_version: 9 })).toEqual({
      status: 200,
      body: { data: null, warnings: [ignored] },
    });
    expectPlain404(await env.MR('foo'));
  });

  it('60: a metadata-only key reads with version 0 and an empty versions map', async () => {
    const env = setup();
    await env.MD('foo', { max_versions: 3 });
    expect(dataOf(await env.MR('foo'))).toEqual({
      cas_required: false,
      created_time: NOW,
      current_metadata_version: 0,
      current_version: 0,
      custom_metadata: null,
      delete_version_after: '0s',
      destroy_version_after: '0s',
      last_updated_by: null,
      max_versions: 3,
      metadata_cas_required: false,
      oldest_version: 0,
      updated_time: NOW,
      versions: {},
    });
  });

  it('61: metadata writes and patches leave updated_time alone; a data write sets it', async () => {
    const env = setup();
    await env.MD('foo', { max_versions: 3 });
    env.clock.advance(60);
    await env.MD('foo', { max_versions: 4 });
    await env.MP('foo', { max_versions: 5 });
    expect(dataOf(await env.MR('foo')).updated_time).toBe(NOW);
    await env.W('foo', { a: 1 });
    expect(dataOf(await env.MR('foo')).updated_time).toBe('2026-03-01T12:01:00Z');
  });

  it('a metadata write never prunes', async () => {
    const env = setup();
    for (let i = 0; i < 5; i++) await env.W('foo', { i });
    await env.MD('foo', { max_versions: 1 });
    expect(Object.keys(dataOf(await env.MR('foo')).versions)).toHaveLength(5);
  });

  it('cas_required false under an engine that requires cas answers 200 with a warning, and is stored', async () => {
    const env = setup();
    await env.config({ cas_required: true });
    const response = await env.MD('foo', { cas_required: false, max_versions: 3 });
    expect(response).toEqual({
      status: 200,
      body: {
        data: null,
        warnings: ['"cas_required" set to false, but is mandated by backend config. This value will be ignored.'],
      },
    });
    expect(dataOf(await env.MR('foo')).cas_required).toBe(false);
  });

  it.each([
    [{ max_versions: 'x' }, 'max_versions'],
    [{ max_versions: -1 }, 'max_versions'],
    [{ cas_required: 'perhaps' }, 'cas_required'],
    [{ delete_version_after: 'later' }, 'delete_version_after'],
  ])('refuses %j with a 400 naming the field', async (body, field) => {
    const env = setup();
    expectError(await env.MD('foo', body), 400, field);
    expectPlain404(await env.MR('foo'));
  });

  it('the metadata root is not a key: write, patch, read and delete answer 400 "missing path"', async () => {
    const env = setup();
    for (const method of ['POST', 'PATCH', 'GET', 'DELETE'] as const) {
      expectError(
        await env.handle({
          method,
          path: 'metadata/',
          body: { max_versions: 1 },
          headers: { 'content-type': 'application/merge-patch+json' },
        }),
        400,
        'missing path',
      );
    }
  });
});

describe('metadata PATCH', () => {
  it('52: PATCH metadata/ answers 400 "missing path"', async () => {
    expectError(await setup().MP('', { max_versions: 1 }), 400, 'missing path');
  });

  it('53: field and custom_metadata validation', async () => {
    const env = setup();
    await env.MD('foo', { cas_required: true });
    const cases: [unknown, string][] = [
      [{ max_versions: [1, 2, 3] }, 'max_versions'],
      [{ custom_metadata: { '': 'foo' } }, 'length of key "" is 0'],
      [{ custom_metadata: { 'unprint\u200bable': 'foo' } }, 'key "unprint\\u200bable" contains unprintable characters'],
      [{ custom_metadata: { foo: 'unprint\u200bable' } }, 'value for key "foo" contains unprintable characters'],
      [{ custom_metadata: { ['a'.repeat(129)]: 'foo' } }, 'is 129'],
      [{ custom_metadata: { foo: 'a'.repeat(513) } }, 'length of value for key "foo" is 513'],
      [{ custom_metadata: { foo: { bar: 'baz' } } }, 'got unconvertible type'],
    ];
    for (const [body, fragment] of cases) expectError(await env.MP('foo', body), 400, fragment);
    expect(dataOf(await env.MR('foo'))).toMatchObject({ cas_required: true, custom_metadata: null, max_versions: 0 });
  });

  it('54: PATCH of a missing key answers 404 without a body', async () => {
    const env = setup();
    expect(await env.MP('foo', { max_versions: 1 })).toEqual({ status: 404 });
    expect(await env.MP('foo', {})).toEqual({ status: 404 });
  });

  it('55: cas_required false under an engine requirement answers 200 with one warning', async () => {
    const env = setup();
    await env.config({ cas_required: true });
    await env.MD('foo', { max_versions: 5 });
    const response = await env.MP('foo', { cas_required: false });
    expect(response.status).toBe(200);
    expect((response.body as { warnings: string[] }).warnings).toHaveLength(1);
    expect((response.body as { warnings: string[] }).warnings[0]).toContain(
      '"cas_required" set to false, but is mandated by backend config',
    );
    expect(dataOf(await env.MR('foo')).cas_required).toBe(false);
  });

  it('56: custom_metadata merges per key', async () => {
    const env = setup();
    await env.MD('foo', { custom_metadata: { foo: 'abc', bar: 'def' } });
    const steps: [Record<string, unknown>, Record<string, string>][] = [
      [{}, { foo: 'abc', bar: 'def' }],
      [{ baz: 'ghi' }, { foo: 'abc', bar: 'def', baz: 'ghi' }],
      [{ baz: null }, { foo: 'abc', bar: 'def' }],
      [{ foo: null }, { bar: 'def' }],
      [{ foo: 'ghi' }, { bar: 'def', foo: 'ghi' }],
      [
        { foo: 'def', bar: null, baz: 'ghi' },
        { foo: 'def', baz: 'ghi' },
      ],
    ];
    for (const [patch, expected] of steps) {
      expect((await env.MP('foo', { custom_metadata: patch })).status).toBe(204);
      expect(dataOf(await env.MR('foo')).custom_metadata).toEqual(expected);
    }
    await env.MP('foo', { custom_metadata: null });
    expect(dataOf(await env.MR('foo')).custom_metadata).toBeNull();
  });

  it('57: read-only and unknown fields are ignored; only the patchable ones change', async () => {
    const env = setup();
    await env.MD('foo', { max_versions: 10, delete_version_after: '10s' });
    const before = dataOf(await env.MR('foo'));
    const junk = { foo: 'x', created_time: 'junk', current_version: 99, oldest_version: 7, updated_time: 'junk' };
    const ignored =
      'Endpoint ignored these unrecognized parameters: [created_time current_version foo oldest_version updated_time]';
    expect(await env.MP('foo', junk)).toEqual({ status: 200, body: { data: null, warnings: [ignored] } });
    expect(await env.MP('foo', {})).toEqual({ status: 204 });
    expect(dataOf(await env.MR('foo'))).toEqual(before);
    await env.MP('foo', { cas_required: true, max_versions: 5 });
    // Each patch that changes something counts up current_metadata_version (OpenBao's metadata check-and-set).
    expect(dataOf(await env.MR('foo'))).toEqual({
      ...before,
      cas_required: true,
      max_versions: 5,
      current_metadata_version: 1,
    });
    await env.MP('foo', { cas_required: true, max_versions: 15, delete_version_after: '0s', updated_time: 'junk' });
    expect(dataOf(await env.MR('foo'))).toEqual({
      ...before,
      cas_required: true,
      max_versions: 15,
      delete_version_after: '0s',
      current_metadata_version: 2,
    });
  });

  it('58: null resets max_versions to 0 and cas_required to false; a null duration changes nothing', async () => {
    const env = setup();
    await env.MD('foo', { max_versions: 10, cas_required: true, delete_version_after: '1m' });
    await env.MP('foo', { max_versions: null, cas_required: null, delete_version_after: null });
    expect(dataOf(await env.MR('foo'))).toMatchObject({
      max_versions: 0,
      cas_required: false,
      delete_version_after: '1m0s',
    });
  });

  it('62 (deviation): a PATCH cannot grow custom_metadata past 64 keys', async () => {
    const env = setup();
    await env.MD('foo', { custom_metadata: Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, 'v'])) });
    expectError(await env.MP('foo', { custom_metadata: { extra: 'x' } }), 400, 'at most 64 keys, provided 65');
    expect((await env.MP('foo', { custom_metadata: { k0: null, extra: 'x' } })).status).toBe(204);
  });

  it('needs application/merge-patch+json', async () => {
    const env = setup();
    await env.MD('foo', { max_versions: 1 });
    const response = await env.handle({
      method: 'PATCH',
      path: 'metadata/foo',
      body: { max_versions: 2 },
      headers: { 'content-type': 'application/json-patch+json' },
    });
    expect(response.status).toBe(415);
  });

  it('neither prunes nor changes versions', async () => {
    const env = setup();
    for (let i = 0; i < 3; i++) await env.W('foo', { i });
    await env.MP('foo', { max_versions: 1 });
    expect(Object.keys(dataOf(await env.MR('foo')).versions)).toHaveLength(3);
  });
});
