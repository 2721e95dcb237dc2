import { describe, expect, it } from 'vitest';
import { InvalidRequest } from '../../src/lib/errors.js';
import { dataOf, expectError, setup } from './helpers.js';

// OpenBao's wording; the field names and shapes follow OpenBao's KV v2 API.
const REQUIRED = 'metadata check-and-set parameter required for this call';
const MISMATCH = 'metadata check-and-set parameter does not match the current version';
const CREATE_NEEDS_ZERO = 'metadata_cas must be 0 when creating new metadata';
const IGNORED = '"metadata_cas_required" set to false, but is mandated by backend config. This value will be ignored.';

describe('metadata check-and-set (metadata_cas, metadata_cas_required)', () => {
  it('a metadata read shows current_metadata_version and metadata_cas_required; each metadata write or patch counts up', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    expect(dataOf(await env.MR('foo'))).toMatchObject({ current_metadata_version: 0, metadata_cas_required: false });
    expect((await env.MD('foo', { max_versions: 4 })).status).toBe(204);
    expect(dataOf(await env.MR('foo')).current_metadata_version).toBe(1);
    expect((await env.MP('foo', { custom_metadata: { a: 'b' } })).status).toBe(204);
    expect(dataOf(await env.MR('foo')).current_metadata_version).toBe(2);
    // Data writes do not count: the number tracks metadata changes only.
    await env.W('foo', { a: 2 });
    expect(dataOf(await env.MR('foo')).current_metadata_version).toBe(2);
  });

  it('metadata_cas applies a write or patch only when it equals current_metadata_version; a mismatch is 400 and changes nothing', async () => {
    const env = setup();
    await env.MD('foo', { max_versions: 2 });
    expectError(await env.MD('foo', { max_versions: 9, metadata_cas: 1 }), 400, MISMATCH);
    expectError(await env.MP('foo', { max_versions: 9, metadata_cas: 3 }), 400, MISMATCH);
    expect(dataOf(await env.MR('foo'))).toMatchObject({ max_versions: 2, current_metadata_version: 0 });
    expect((await env.MD('foo', { max_versions: 3, metadata_cas: 0 })).status).toBe(204);
    expect((await env.MP('foo', { max_versions: 4, metadata_cas: 1 })).status).toBe(204);
    expect(dataOf(await env.MR('foo'))).toMatchObject({ max_versions: 4, current_metadata_version: 2 });
  });

  it('creating metadata with metadata_cas needs 0', async () => {
    const env = setup();
    expectError(await env.MD('new', { max_versions: 1, metadata_cas: 1 }), 400, CREATE_NEEDS_ZERO);
    expect((await env.MR('new')).status).toBe(404);
    expect((await env.MD('new', { max_versions: 1, metadata_cas: 0 })).status).toBe(204);
  });

  it('a key that sets metadata_cas_required refuses metadata changes without metadata_cas', async () => {
    const env = setup();
    await env.MD('foo', { metadata_cas_required: true });
    expect(dataOf(await env.MR('foo'))).toMatchObject({ metadata_cas_required: true, current_metadata_version: 0 });
    expectError(await env.MD('foo', { max_versions: 5 }), 400, REQUIRED);
    expectError(await env.MP('foo', { max_versions: 5 }), 400, REQUIRED);
    expect((await env.MP('foo', { metadata_cas_required: false, metadata_cas: 0 })).status).toBe(204);
    expect((await env.MD('foo', { max_versions: 5 })).status).toBe(204);
    // Data writes are not metadata changes: metadata_cas_required does not affect them.
    expect((await env.W('foo', { a: 1 })).status).toBe(200);
  });

  it('the engine config can mandate it for every key; a key cannot weaken it, and is told so', async () => {
    const env = setup();
    await env.config({ metadata_cas_required: true });
    expect(dataOf(await env.handle({ method: 'GET', path: 'config' }))).toMatchObject({ metadata_cas_required: true });
    await env.W('foo', { a: 1 });
    expectError(await env.MD('foo', { max_versions: 5 }), 400, REQUIRED);
    const response = await env.MD('foo', { metadata_cas_required: false, metadata_cas: 0 });
    expect(response).toEqual({ status: 200, body: { data: null, warnings: [IGNORED] } });
    expectError(await env.MP('foo', { max_versions: 5 }), 400, REQUIRED);
  });

  it('bad values are 400', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    expect((await env.MD('foo', { max_versions: 1, metadata_cas: -1 })).status).toBe(400);
    expect((await env.MD('foo', { max_versions: 1, metadata_cas: 'x' })).status).toBe(400);
    expect((await env.MD('foo', { metadata_cas_required: 'maybe' })).status).toBe(400);
  });

  it('the typed methods take the same fields and reject a mismatch with InvalidRequest', async () => {
    const { kv } = setup();
    await kv.writeMetadata('foo', { max_versions: 2 });
    await expect(kv.patchMetadata('foo', { max_versions: 3, metadata_cas: 5 })).rejects.toBeInstanceOf(InvalidRequest);
    await kv.patchMetadata('foo', { max_versions: 3, metadata_cas: 0 });
    expect((await kv.readMetadata('foo')).current_metadata_version).toBe(1);
  });
});
