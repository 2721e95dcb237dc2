import { describe, expect, it } from 'vitest';
import { dataOf, expectError, expectPlain404, MERGE, policy, setup } from './helpers.js';

/** One test per state transition and per error rule of the KV engine (docs/kv.md), through handle(). */

async function blobCount(env: ReturnType<typeof setup>): Promise<number> {
  let count = 0;
  for (const folder of await env.storage.list('kv/versions/'))
    count += (await env.storage.list(`kv/versions/${folder}`)).length;
  return count;
}

describe('spec state table', () => {
  it('(none) -> active: POST data on a new key with create capability and cas 0 creates version 1', async () => {
    const env = setup();
    const caller = policy('create:data/k');
    const response = await env.handle({
      method: 'POST',
      path: 'data/k',
      body: { data: { a: 1 }, options: { cas: 0 } },
      authorize: caller.authorize,
    });
    expect(dataOf(response).version).toBe(1);
    expect(dataOf(await env.R('k')).data).toEqual({ a: 1 });
  });

  it('any -> active: POST data on an existing key with update capability and cas = current adds a version', async () => {
    const env = setup();
    await env.W('k', { a: 1 });
    await env.DEL('k');
    const caller = policy('update:data/k');
    const response = await env.handle({
      method: 'POST',
      path: 'data/k',
      body: { data: { a: 2 }, options: { cas: 1 } },
      authorize: caller.authorize,
    });
    expect(dataOf(response).version).toBe(2);
  });

  it('active -> active: PATCH with patch capability and cas = current > 0 merges into a new version', async () => {
    const env = setup();
    await env.config({ cas_required: true });
    await env.W('k', { a: 1, b: 2 }, 0);
    const caller = policy('patch:data/k');
    const response = await env.handle({
      method: 'PATCH',
      path: 'data/k',
      headers: MERGE,
      body: { data: { b: null, c: 3 }, options: { cas: 1 } },
      authorize: caller.authorize,
    });
    expect(dataOf(response).version).toBe(2);
    expect(dataOf(await env.R('k')).data).toEqual({ a: 1, c: 3 });
  });

  it('active -> soft-deleted: DELETE data hides the latest version and keeps its data', async () => {
    const env = setup();
    await env.W('k', { a: 1 });
    await env.DEL('k');
    expect((await env.R('k')).status).toBe(404);
    expect(await blobCount(env)).toBe(1);
  });

  it('active -> soft-deleted: POST delete/ hides the listed versions and keeps their data', async () => {
    const env = setup();
    await env.W('k', { a: 1 });
    await env.W('k', { a: 2 });
    await env.versions('delete', 'k', [1]);
    expect((await env.R('k', 1)).status).toBe(404);
    expect((await env.R('k', 2)).status).toBe(200);
    expect(await blobCount(env)).toBe(2);
  });

  it('soft-deleted -> active: POST undelete/ returns the data on reads again', async () => {
    const env = setup();
    await env.W('k', { a: 1 });
    await env.DEL('k');
    await env.versions('undelete', 'k', [1]);
    expect(dataOf(await env.R('k')).data).toEqual({ a: 1 });
  });

  it('active or soft-deleted -> destroyed: PUT destroy/ removes the data permanently', async () => {
    const env = setup();
    await env.W('k', { a: 1 });
    await env.W('k', { a: 2 });
    await env.versions('delete', 'k', [1]);
    await env.versions('destroy', 'k', [1, 2]);
    expect(await blobCount(env)).toBe(0);
    await env.versions('undelete', 'k', [1, 2]);
    for (const version of [1, 2])
      expect(dataOf(await env.R('k', version))).toMatchObject({ data: null, metadata: { destroyed: true } });
  });

  it('any -> gone: the oldest version is permanently deleted once the count exceeds max_versions', async () => {
    const env = setup();
    await env.MD('k', { max_versions: 2 });
    for (let i = 1; i <= 3; i++) await env.W('k', { i });
    expectPlain404(await env.R('k', 1));
    expect(await blobCount(env)).toBe(2);
  });

  it('all -> removed: DELETE metadata removes the metadata and every version', async () => {
    const env = setup();
    await env.W('k', { a: 1 });
    await env.W('k', { a: 2 });
    await env.DEL('k');
    await env.handle({ method: 'DELETE', path: 'metadata/k' });
    expectPlain404(await env.MR('k'));
    expectPlain404(await env.R('k', 1));
    expect(await blobCount(env)).toBe(0);
  });

  it('a write to a soft-deleted key needs cas = current version when cas is checked', async () => {
    const env = setup();
    await env.MD('k', { cas_required: true });
    await env.W('k', { a: 1 }, 0);
    await env.DEL('k');
    expectError(await env.W('k', { a: 2 }, 0), 400, 'did not match');
    expect(dataOf(await env.W('k', { a: 2 }, 1)).version).toBe(2);
  });

  it('metadata writes and patches create no version', async () => {
    const env = setup();
    await env.W('k', { a: 1 });
    await env.MD('k', { max_versions: 4 });
    await env.MP('k', { custom_metadata: { x: 'y' } });
    expect(dataOf(await env.MR('k')).current_version).toBe(1);
  });
});

describe('spec errors table', () => {
  it('write without cas when cas_required applies: rejected', async () => {
    const env = setup();
    await env.MD('k', { cas_required: true });
    expectError(await env.W('k', { a: 1 }), 400, 'check-and-set parameter required for this call');
  });

  it('cas different from the current version, or not 0 for a new key: rejected', async () => {
    const env = setup();
    expectError(await env.W('k', { a: 1 }, 1), 400, 'did not match');
    await env.W('k', { a: 1 }, 0);
    expectError(await env.W('k', { a: 1 }, 2), 400, 'did not match');
    expectPlain404(await env.R('k', 2));
  });

  it('patch on a key whose latest version is deleted or destroyed: rejected', async () => {
    const env = setup();
    await env.W('k', { a: 1 });
    await env.DEL('k');
    expect((await env.PATCH('k', { data: { b: 1 } })).status).toBe(404);
    await env.versions('destroy', 'k', [1]);
    expect((await env.PATCH('k', { data: { b: 1 } })).status).toBe(404);
    expect(dataOf(await env.MR('k')).current_version).toBe(1);
  });

  it('patch with cas 0 or below when cas is required: rejected, a patch needs an existing key', async () => {
    const env = setup();
    await env.config({ cas_required: true });
    await env.W('k', { a: 1 }, 0);
    expectError(await env.PATCH('k', { data: { b: 1 }, options: { cas: 0 } }), 400, 'did not match');
    expectError(await env.PATCH('k', { data: { b: 1 }, options: { cas: -1 } }), 400, 'did not match');
    expect(await env.PATCH('new', { data: { b: 1 }, options: { cas: 0 } })).toEqual({ status: 404 });
  });

  it('caller lacks the needed capability: rejected with 403', async () => {
    const env = setup();
    const response = await env.handle({
      method: 'POST',
      path: 'data/k',
      body: { data: { a: 1 } },
      authorize: () => false,
    });
    expect(response.status).toBe(403);
    expectPlain404(await env.MR('k'));
  });

  it('list on a non-folder path: no value', async () => {
    const env = setup();
    await env.W('leaf', { a: 1 });
    expectPlain404(await env.LIST('leaf'));
  });
});
