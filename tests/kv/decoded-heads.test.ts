import { describe, expect, it } from 'vitest';
import { JsonStore } from '../../src/core/store/stored-json.js';
import { DecodedHeads } from '../../src/kv/store/decoded-heads.js';
import { KeyStore } from '../../src/kv/store/key-store.js';
import { newMetadata } from '../../src/kv/rules/metadata.js';
import { StorageLayout } from '../../src/kv/documents/storage-layout.js';
import { addVersion } from '../../src/kv/rules/versions.js';
import { dataOf, setup } from './helpers.js';
import { testStorage } from '../support/test-storage.js';

/** Head records are decoded once per distinct bytes; every read still reads the storage. */

const encoder = new TextEncoder();
const head = (current: number) => ({
  created: 1,
  updated: 1,
  current_version: current,
  oldest_version: 0,
  max_versions: 0,
  cas_required: false,
  delete_version_after: 0,
  custom_metadata: {},
  revision: current,
  spilled: 0,
  versions: [{ version: current, created: 1, blob: 'b' }],
  garbage: [],
  retired: [],
});

describe('decoded heads', () => {
  it('answer the remembered record for the same bytes, and decode other bytes afresh', async () => {
    const storage = testStorage();
    const heads = new DecodedHeads(new JsonStore(storage));
    await storage.put('h', encoder.encode(JSON.stringify(head(1))));
    const first = await heads.read('h');
    expect(await heads.read('h')).toBe(first);
    await storage.put('h', encoder.encode(JSON.stringify(head(2))));
    expect((await heads.read('h'))?.current_version).toBe(2);
    await storage.delete('h');
    expect(await heads.read('h')).toBeUndefined();
  });

  it('freeze what they answer, so no caller can alter a later read', async () => {
    const storage = testStorage();
    const heads = new DecodedHeads(new JsonStore(storage));
    await storage.put('h', encoder.encode(JSON.stringify(head(1))));
    const record = (await heads.read('h'))!;
    expect(() => {
      (record.versions[0] as { version: number }).version = 5;
    }).toThrow(TypeError);
    expect(() => record.versions.push({ version: 9, created: 1 })).toThrow(TypeError);
  });

  it('freeze a head this process committed as deeply as one it decoded', async () => {
    const layout = new StorageLayout('kv/');
    const keys = new KeyStore(new JsonStore(testStorage()), layout, () => 1);
    for (let round = 1; round <= 3; round++) {
      await keys.change('k', async (current, stage) => {
        const { next } = addVersion(current ?? newMetadata(1), await stage({ round }), 1, {
          max_versions: 0,
          cas_required: false,
          delete_version_after: 0,
          destroy_version_after: 0,
        });
        return {
          next: {
            ...next,
            custom_metadata: { round: String(round) },
            changes: [{ operation: 'write', version: round, revision: round, time: 1 }],
          },
          result: undefined,
        };
      });
    }
    // The record the commit remembered, answered for the stored bytes it wrote.
    const record = (await keys.read('k'))!;
    expect(record.current_version).toBe(3);
    for (const part of [
      record,
      record.versions,
      ...record.versions,
      record.changes,
      ...(record.changes ?? []),
      record.custom_metadata,
      record.garbage,
    ]) {
      expect(Object.isFrozen(part)).toBe(true);
    }
  });

  it('see a write made by another engine over the same storage at once', async () => {
    const storage = testStorage();
    const one = setup({ storage });
    const other = setup({ storage });
    expect((await one.W('k', { a: 1 })).status).toBe(200);
    expect(dataOf(await other.R('k')).data).toEqual({ a: 1 });
    expect((await other.W('k', { a: 2 })).status).toBe(200);
    expect(dataOf(await one.R('k')).data).toEqual({ a: 2 });
    expect((await other.handle({ method: 'DELETE', path: 'metadata/k' })).status).toBe(204);
    expect((await one.R('k')).status).toBe(404);
  });

  it("answer each version's created_time from the head read now, not from the one read before", async () => {
    const storage = testStorage();
    const one = setup({ storage });
    const other = setup({ storage });
    expect((await one.W('k', { a: 1 })).status).toBe(200);
    const metadataOf = async () => dataOf(await one.R('k')).metadata as { created_time: string; version: number };
    expect(await metadataOf()).toMatchObject({ version: 1, created_time: '2026-03-01T12:00:00Z' });
    expect((await other.handle({ method: 'DELETE', path: 'metadata/k' })).status).toBe(204);
    other.clock.set('2026-03-02T08:30:00.25Z');
    expect((await other.W('k', { a: 2 })).status).toBe(200);
    // The same version number and key, written again elsewhere: its time is the new write's.
    expect(await metadataOf()).toMatchObject({ version: 1, created_time: '2026-03-02T08:30:00.25Z' });
  });
});
