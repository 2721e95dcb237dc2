import { describe, expect, it } from 'vitest';
import { dataOf, expectError, setup } from './helpers.js';

const readConfig = async (env: ReturnType<typeof setup>) => dataOf(await env.handle({ method: 'GET', path: 'config' }));

describe('config', () => {
  it('1: a new mount has the defaults', async () => {
    expect(await readConfig(setup())).toEqual({
      cas_required: false,
      delete_version_after: '0s',
      destroy_version_after: '0s',
      max_versions: 0,
      metadata_cas_required: false,
    });
  });

  it('2: a write answers 204 and reads back in Go duration format', async () => {
    const env = setup();
    expect(await env.config({ max_versions: 4, cas_required: true, delete_version_after: '5m' })).toEqual({
      status: 204,
    });
    expect(await readConfig(env)).toEqual({
      cas_required: true,
      delete_version_after: '5m0s',
      destroy_version_after: '0s',
      max_versions: 4,
      metadata_cas_required: false,
    });
  });

  it.each([
    ['3: "0s" clears', ['10s', '0s'], '0s'],
    ['4: a new value replaces', ['10s', '20s'], '20s'],
    ['5: a negative value disables', ['10s', '-1h'], '-1s'],
    ['6: disabled, then set again', ['-1h', '3h'], '3h0m0s'],
    ['7: disabled, then cleared', ['-1h', '0h'], '0s'],
    ['seconds as a number', [3600], '1h0m0s'],
    ['days', ['2d'], '48h0m0s'],
  ])('%s', async (_name, values, expected) => {
    const env = setup();
    for (const value of values) expect((await env.config({ delete_version_after: value })).status).toBe(204);
    expect((await readConfig(env)).delete_version_after).toBe(expected);
  });

  it('8: an empty write answers 204 and changes nothing; only the fields sent change', async () => {
    const env = setup();
    await env.config({ max_versions: 3, cas_required: true });
    expect(await env.config({})).toEqual({ status: 204 });
    await env.config({ delete_version_after: '1m' });
    expect(await readConfig(env)).toEqual({
      cas_required: true,
      delete_version_after: '1m0s',
      destroy_version_after: '0s',
      max_versions: 3,
      metadata_cas_required: false,
    });
  });

  it('accepts the loose conversions of Vault', async () => {
    const env = setup();
    await env.config({ max_versions: '7', cas_required: 'true' });
    expect(await readConfig(env)).toMatchObject({ cas_required: true, max_versions: 7 });
  });

  it.each([
    [{ max_versions: 'many' }, 'max_versions'],
    [{ max_versions: -1 }, 'max_versions'],
    [{ cas_required: 'maybe' }, 'cas_required'],
    [{ delete_version_after: 'soon' }, 'delete_version_after'],
    [{ delete_version_after: { h: 1 } }, 'delete_version_after'],
  ])('refuses %j with a 400 naming the field', async (body, field) => {
    expectError(await setup().config(body), 400, field);
  });

  it('is not retroactive: existing deletion times stay', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    await env.config({ delete_version_after: '1h' });
    expect(dataOf(await env.R('foo')).metadata.deletion_time).toBe('');
  });

  it('a change made by another engine over the same storage applies to the next write here, and a corrupted one is a 500', async () => {
    const here = setup();
    const other = setup({ storage: here.storage });
    expect((await here.W('k', { v: 1 })).status).toBe(200);
    expect((await other.config({ cas_required: true })).status).toBe(204);
    expectError(await here.W('k', { v: 2 }), 400, 'check-and-set parameter required for this call');
    expect((await other.config({ cas_required: false })).status).toBe(204);
    expect((await here.W('k', { v: 2 })).status).toBe(200);
    await here.storage.put('kv/config', new TextEncoder().encode('{"max_versions":"many"}'));
    expect((await here.W('k', { v: 3 })).status).toBe(500);
  });

  it('answers 405 to methods the path does not support', async () => {
    const env = setup();
    expect((await env.handle({ method: 'DELETE', path: 'config' })).status).toBe(405);
  });
});
