import { describe, expect, it } from 'vitest';
import type { KvChangeEvent } from '../../src/kv/index.js';
import { dataOf, expectError, setup } from './helpers.js';

/**
 * destroy_version_after (hashicorp/vault#6184): a version older than the lifetime reads as destroyed everywhere at once,
 * and the sweep removes its data from storage. Over every kind of storage, with a manual clock.
 */

const HOUR = 3600;

async function storedJson(storage: { get(key: string): Promise<Uint8Array | undefined> }, key: string) {
  const bytes = await storage.get(key);
  return bytes && (JSON.parse(new TextDecoder().decode(bytes)) as Record<string, any>);
}

/** A key `k` with one version written under a one-hour lifetime set on the key. */
async function withLifetime() {
  const env = setup();
  expect((await env.MD('k', { destroy_version_after: '1h' })).status).toBe(204);
  await env.W('k', { secret: 'v1' });
  return env;
}

describe('destroy_version_after: the settings', () => {
  it('is set on key metadata and on config, reads back as a duration, and 0s turns it off', async () => {
    const env = setup();
    expect(await env.MD('k', { destroy_version_after: '90m' })).toEqual({ status: 204 });
    expect(dataOf(await env.MR('k')).destroy_version_after).toBe('1h30m0s');
    expect((await env.MP('k', { destroy_version_after: null })).status).toBe(204);
    expect(dataOf(await env.MR('k')).destroy_version_after).toBe('1h30m0s');
    expect((await env.MP('k', { destroy_version_after: '0s' })).status).toBe(204);
    expect(dataOf(await env.MR('k')).destroy_version_after).toBe('0s');

    expect(await env.config({ destroy_version_after: 7200 })).toEqual({ status: 204 });
    expect(dataOf(await env.handle({ method: 'GET', path: 'config' })).destroy_version_after).toBe('2h0m0s');
    expect(await env.kv.readConfig()).toMatchObject({ destroy_version_after: '2h0m0s' });
    await env.kv.writeConfig({ destroy_version_after: '0s' });
    expect(await env.kv.readConfig()).toMatchObject({ destroy_version_after: '0s' });
    await env.W('k', { secret: 'kept' });
    env.clock.advance(1000 * HOUR);
    expect(dataOf(await env.R('k')).data).toEqual({ secret: 'kept' });
  });

  it.each([
    ['a negative duration', '-1h', 'negative'],
    ['no duration', 'soon', 'destroy_version_after'],
    ['an object', { h: 1 }, 'destroy_version_after'],
  ])('refuses %s with a 400, on metadata and config alike', async (_name, value, fragment) => {
    const env = setup();
    expectError(await env.MD('k', { destroy_version_after: value }), 400, fragment);
    expectError(await env.config({ destroy_version_after: value }), 400, fragment);
    expect((await env.MR('k')).status).toBe(404);
    expect(dataOf(await env.handle({ method: 'GET', path: 'config' })).destroy_version_after).toBe('0s');
  });

  it('metadata check-and-set applies to it', async () => {
    const env = setup();
    await env.MD('k', { metadata_cas_required: true, metadata_cas: 0 });
    expectError(await env.MD('k', { destroy_version_after: '1h' }), 400, 'check-and-set');
    const current = dataOf(await env.MR('k')).current_metadata_version as number;
    expectError(await env.MP('k', { destroy_version_after: '1h', metadata_cas: current + 1 }), 400, 'check-and-set');
    expect(dataOf(await env.MR('k')).destroy_version_after).toBe('0s');
    expect((await env.MP('k', { destroy_version_after: '1h', metadata_cas: current })).status).toBe(204);
    expect(dataOf(await env.MR('k')).destroy_version_after).toBe('1h0m0s');
  });
});

describe('destroy_version_after: no read serves a version past its time', () => {
  it('before its time the version reads; at its time every read answers it destroyed', async () => {
    const env = await withLifetime();
    env.clock.advance(HOUR - 1);
    expect(dataOf(await env.R('k')).data).toEqual({ secret: 'v1' });
    env.clock.advance(1);
    const read = await env.R('k');
    expect(read.status).toBe(404);
    expect(dataOf(read)).toMatchObject({ data: null, metadata: { destroyed: true, version: 1 } });
    expect(JSON.stringify(read)).not.toContain('v1');
    const subkeys = await env.SUB('k');
    expect(subkeys.status).toBe(404);
    expect(dataOf(subkeys)).toMatchObject({ subkeys: null, metadata: { destroyed: true } });
    expect(dataOf(await env.MR('k')).versions['1']).toMatchObject({ destroyed: true });
    expect((await env.PATCH('k', { data: { more: 1 } })).status).toBe(404);
    await expect(env.kv.read('k')).rejects.toThrow('version 1 of "k" is destroyed');
    const detailed = await env.handle({ method: 'LIST', path: 'detailed-metadata/' });
    expect(dataOf(detailed).key_info.k.versions['1'].destroyed).toBe(true);
    // A new version is written as over any destroyed head, and lives its own hour.
    await env.W('k', { secret: 'v2' });
    expect(dataOf(await env.R('k')).data).toEqual({ secret: 'v2' });
  });

  it('a listing with exclude_deleted leaves out a key whose current version is past its time', async () => {
    const env = await withLifetime();
    await env.W('other', { a: 1 });
    expect(dataOf(await env.LIST('', { exclude_deleted: 'true' })).keys).toEqual(['k', 'other']);
    env.clock.advance(HOUR);
    expect(dataOf(await env.LIST('', { exclude_deleted: 'true' })).keys).toEqual(['other']);
    await env.kv.sweepLifetimes();
    expect(await env.kv.list('', { excludeDeleted: true })).toEqual(['other']);
    expect(dataOf(await env.LIST('')).keys).toEqual(['k', 'other']);
  });

  it('the lifetime is the smaller of the key and config values, fixed when the version is written', async () => {
    const env = setup();
    await env.config({ destroy_version_after: '3h' });
    await env.MD('short', { destroy_version_after: '1h' });
    await env.MD('long', { destroy_version_after: '5h' });
    await env.W('short', { a: 1 });
    await env.W('long', { a: 1 });
    await env.W('plain', { a: 1 });
    env.clock.advance(HOUR);
    expect((await env.R('short')).status).toBe(404);
    expect((await env.R('long')).status).toBe(200);
    // Lifting the config now spares no version already written under it.
    await env.config({ destroy_version_after: '0s' });
    env.clock.advance(2 * HOUR);
    expect(dataOf(await env.R('long')).metadata.destroyed).toBe(true);
    expect(dataOf(await env.R('plain')).metadata.destroyed).toBe(true);
  });

  it.each([
    ['destroy first', { delete_version_after: '2h', destroy_version_after: '1h' }, [200, 'destroyed', 'destroyed']],
    ['delete first', { delete_version_after: '1h', destroy_version_after: '2h' }, [200, 'deleted', 'destroyed']],
  ])('both lifetimes set: the earlier one acts first (%s)', async (_name, settings, states) => {
    const env = setup();
    await env.MD('k', settings);
    await env.W('k', { a: 1 });
    const state = async () => {
      const read = await env.R('k');
      if (read.status === 200) return 200;
      return dataOf(read).metadata.destroyed ? 'destroyed' : 'deleted';
    };
    const seen = [await state()];
    env.clock.advance(HOUR);
    seen.push(await state());
    env.clock.advance(HOUR);
    seen.push(await state());
    expect(seen).toEqual(states);
  });

  it('undelete does not bring back a version past its time', async () => {
    const env = await withLifetime();
    await env.DEL('k');
    env.clock.advance(HOUR);
    expect(await env.versions('undelete', 'k', [1])).toEqual({ status: 204 });
    expect(dataOf(await env.R('k')).metadata.destroyed).toBe(true);
  });
});

describe('destroy_version_after: the sweep', () => {
  it('removes the data from storage, once, with a destroy event', async () => {
    const env = await withLifetime();
    await env.W('k', { secret: 'v2' });
    const events: KvChangeEvent[] = [];
    env.kv.subscribe('', (event) => events.push(event));
    expect(await env.kv.sweepLifetimes()).toEqual({ destroyed: 0 });
    expect((await env.storage.list('kv/versions/')).length).toBeGreaterThan(0);
    env.clock.advance(2 * HOUR);
    expect(await env.kv.sweepLifetimes()).toEqual({ destroyed: 2 });
    expect(await env.storage.list('kv/versions/')).toEqual([]);
    expect(events.map(({ path, operation, version }) => ({ path, operation, version }))).toEqual([
      { path: 'k', operation: 'destroy', version: 2 },
    ]);
    expect(await env.kv.sweepLifetimes()).toEqual({ destroyed: 0 });
    const versions = dataOf(await env.MR('k')).versions;
    expect([versions['1'].destroyed, versions['2'].destroyed]).toEqual([true, true]);
  });

  it('over an engine where no lifetime was ever set, reads nothing but the config', async () => {
    const env = setup();
    await env.config({ delete_version_after: '1h', destroy_version_after: '0s' });
    await env.MD('k', { destroy_version_after: 0 });
    for (const path of ['a', 'b/c', 'k']) await env.W(path, { a: 1 });
    const read: string[] = [];
    const { get, list } = env.storage;
    env.storage.get = (key) => (read.push(key), get.call(env.storage, key));
    env.storage.list = (prefix) => (read.push(prefix), list.call(env.storage, prefix));
    env.clock.advance(1000 * HOUR);
    expect(await env.kv.sweepLifetimes()).toEqual({ destroyed: 0 });
    expect(read).toEqual(['kv/config']);
  });

  it('reaches versions kept outside the head, and data kept in entry documents', async () => {
    const env = setup();
    await env.MD('many', { max_versions: 30, destroy_version_after: '1h' });
    for (let n = 1; n <= 15; n++) {
      await env.W('many', { n, secret: `s${n}` });
      env.clock.advance(60);
    }
    env.clock.advance(HOUR - 15 * 60 + 60 * 5);
    // Versions 1-5 were written more than an hour ago, now minus 5 minutes and earlier.
    const result = await env.kv.sweepLifetimes();
    expect(result.destroyed).toBe(6);
    const versions = dataOf(await env.MR('many')).versions;
    const destroyed = Object.keys(versions).filter((version) => versions[version].destroyed);
    expect(destroyed).toEqual(['1', '2', '3', '4', '5', '6']);
    for (let n = 1; n <= 15; n++) {
      const entry = await storedJson(env.storage, `kv/entries/many/${n}`);
      if (n <= 6) expect(JSON.stringify(entry ?? {})).not.toContain(`"s${n}"`);
    }
    expect(dataOf(await env.R('many', 7)).data).toEqual({ n: 7, secret: 's7' });
  });

  it('a copy of a key never carries a version past its time', async () => {
    const env = await withLifetime();
    env.clock.advance(HOUR);
    const copied = await env.handle({ method: 'POST', path: 'copy/k', body: { to: 'k2' } });
    if (copied.status === 400) return; // a storage without atomic commits moves nothing
    expect(copied.status).toBe(204);
    expect(dataOf(await env.MR('k2')).versions['1'].destroyed).toBe(true);
    expect(dataOf(await env.R('k2', 1))).toMatchObject({ data: null, metadata: { destroyed: true } });
  });
});
