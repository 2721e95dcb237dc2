import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import type { EngineRequest } from '../../src/core/framework/request.js';
import { KvEngine } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { allKeys, kvProblems } from '../campaign/support/invariants.js';
import { FaultyStorage } from '../support/faulty-storage.js';
import { testStorage } from '../support/test-storage.js';
import { blobCount, dataOf, policy } from './helpers.js';

/**
 * A copy or a move hands the caller nothing it could not read at the source: a version soft-deleted there arrives
 * destroyed unless the caller may undelete it at the source (`update` on `undelete/<from>`), and the key-level
 * metadata arrives only with `read` on `metadata/<from>` and `create` on `metadata/<to>`.
 */

const START = '2026-03-01T12:00:00Z';

/**
 * Key `a`: versions 1..versions with data {v}, version 2 soft-deleted, version 3 destroyed, custom metadata and
 * settings; with `versions` over ten, the newest versions keep their data in their entry documents.
 */
async function engineWith(storage: Storage = testStorage(), versions = 4) {
  const clock = new ManualClock(START);
  const kv = new KvEngine({ storage, clock });
  await kv.writeMetadata('a', {
    max_versions: 20,
    cas_required: true,
    delete_version_after: '1h',
    custom_metadata: { owner: 'payroll' },
  });
  for (let v = 1; v <= versions; v++) await kv.write('a', { v }, { cas: v - 1 });
  await kv.deleteVersions('a', [2, versions]);
  await kv.destroyVersions('a', [3]);
  return { kv, storage, clock };
}

const BASE = {
  copy: ['update:copy/a', 'read:data/a', 'create:data/b'],
  move: ['update:move/a', 'read:data/a', 'delete:metadata/a', 'create:data/b'],
};
const request = (verb: 'copy' | 'move', ...grants: string[]): EngineRequest => ({
  method: 'POST',
  path: `${verb}/a`,
  body: { to: 'b' },
  authorize: policy(...BASE[verb], ...grants).authorize,
});

const version = async (kv: KvEngine, path: string, number: number) => {
  const response = await kv.handle({ method: 'GET', path: `data/${path}`, query: { version: String(number) } });
  return {
    status: response.status,
    data: dataOf(response).data,
    destroyed: dataOf(response).metadata.destroyed,
    deleted: dataOf(response).metadata.deletion_time !== '',
  };
};

describe.each(['copy', 'move'] as const)(
  'finding 6: %s never resurrects a version the caller could not read',
  (verb) => {
    it.each([4, 14])(
      'without undelete on the source, deleted versions arrive destroyed (%i versions)',
      async (count) => {
        const { kv, storage } = await engineWith(testStorage(), count);
        expect((await kv.handle(request(verb))).status).toBe(204);
        for (const deleted of [2, count]) {
          expect(await version(kv, 'b', deleted)).toEqual({ status: 404, data: null, destroyed: true, deleted: true });
          await kv.undeleteVersions('b', [deleted]);
          expect(await version(kv, 'b', deleted)).toMatchObject({ status: 404, data: null, destroyed: true });
        }
        expect(await version(kv, 'b', 1)).toMatchObject({ status: 200, data: { v: 1 }, destroyed: false });
        expect(await version(kv, 'b', 3)).toMatchObject({ status: 404, destroyed: true });
        if (verb === 'copy')
          expect(await version(kv, 'a', 2)).toMatchObject({ status: 404, data: null, destroyed: false });
        // The deleted versions' data was not copied, and a moved one's went with the move: nothing is left behind.
        expect(await kvProblems(storage, { tidy: true })).toEqual([]);
        // Of four versions (3 destroyed, 2 and 4 deleted), only version 1's data arrives: a move leaves one blob, a copy four.
        if (count === 4) expect(await blobCount(storage)).toBe(verb === 'copy' ? 4 : 1);
        if (verb === 'move')
          expect((await allKeys(storage, 'kv/')).filter((name) => name.startsWith('kv/entries/a/'))).toEqual([]);
      },
    );

    it('with update on undelete/<from>, deleted versions arrive deleted, and undelete brings them back', async () => {
      const { kv, storage } = await engineWith(testStorage(), 14);
      expect((await kv.handle(request(verb, 'update:undelete/a'))).status).toBe(204);
      for (const deleted of [2, 14]) {
        expect(await version(kv, 'b', deleted)).toEqual({ status: 404, data: null, destroyed: false, deleted: true });
        await kv.undeleteVersions('b', [deleted]);
        expect(await version(kv, 'b', deleted)).toMatchObject({ status: 200, data: { v: deleted }, destroyed: false });
      }
      expect(await kvProblems(storage, { tidy: true })).toEqual([]);
    });

    it('a version whose delete_version_after has passed counts as deleted; one still scheduled is readable and arrives as it is', async () => {
      const { kv, clock } = await engineWith();
      await kv.undeleteVersions('a', [2]);
      clock.advance(30 * 60);
      await kv.write('a', { v: 5 }, { cas: 4 });
      clock.advance(45 * 60);
      // Version 1 expired 15 minutes ago (written at START with delete_version_after 1h); version 5 expires in 15 minutes.
      expect((await kv.handle(request(verb))).status).toBe(204);
      expect(await version(kv, 'b', 1)).toMatchObject({ status: 404, destroyed: true });
      expect(await version(kv, 'b', 5)).toMatchObject({ status: 200, data: { v: 5 } });
    });

    it('without an authorize callback (the typed methods, a trusted caller) every version arrives as it is', async () => {
      const { kv } = await engineWith();
      await (verb === 'copy' ? kv.copy('a', 'b') : kv.move('a', 'b'));
      await kv.undeleteVersions('b', [2]);
      expect((await kv.read('b', { version: 2 })).data).toEqual({ v: 2 });
    });
  },
);

describe.each(['copy', 'move'] as const)(
  'finding 21: %s carries key-level metadata only with rights on metadata/',
  (verb) => {
    const settings = async (kv: KvEngine) => {
      const { custom_metadata, max_versions, delete_version_after, cas_required } = await kv.readMetadata('b');
      return { custom_metadata, max_versions, delete_version_after, cas_required };
    };
    const carried = {
      custom_metadata: { owner: 'payroll' },
      max_versions: 20,
      delete_version_after: '1h0m0s',
      cas_required: true,
    };
    const none = { custom_metadata: null, max_versions: 0, delete_version_after: '0s', cas_required: false };

    it.each([
      [[], none],
      [['read:metadata/a'], none],
      [['create:metadata/b'], none],
      [['read:metadata/a', 'create:metadata/b'], carried],
    ])('with %j the target gets %j', async (grants, expected) => {
      const { kv } = await engineWith();
      expect((await kv.handle(request(verb, ...grants))).status).toBe(204);
      expect(await settings(kv)).toEqual(expected);
      expect((await kv.readMetadata('b')).current_version).toBe(4);
    });

    it('asks the optional rights only after the required ones, and never refuses for their lack', async () => {
      const { kv } = await engineWith();
      const { authorize, asked } = policy(...BASE[verb]);
      expect((await kv.handle({ method: 'POST', path: `${verb}/a`, body: { to: 'b' }, authorize })).status).toBe(204);
      // The route's check, the required ones, then the optional ones (the second metadata check is moot once the first fails).
      expect(asked.map(({ capability, path }) => `${capability}:${path}`)).toEqual([
        ...BASE[verb],
        'update:undelete/a',
        'read:metadata/a',
      ]);
    });
  },
);

describe('a move that destroys deleted versions on arrival, interrupted at every storage step', () => {
  it('leaves the old state or the new, and no data behind', async () => {
    let faults = 0;
    for (let n = 1; ; n++) {
      const inner = new MemoryStorage();
      const faulty = new FaultyStorage(inner);
      const { kv } = await engineWith(faulty, 14);
      faulty.arm(n);
      const response = await kv.handle(request('move'));
      if (!faulty.failed) break;
      faults += 1;
      expect([204, 500]).toContain(response.status);
      const reader = new KvEngine({ storage: inner, clock: new ManualClock(START) });
      const a = await reader.handle({ method: 'GET', path: 'metadata/a' });
      const b = await reader.handle({ method: 'GET', path: 'metadata/b' });
      expect([a.status, b.status].sort()).toEqual([200, 404]);
      expect(await kvProblems(inner, { tidy: true })).toEqual([]);
    }
    expect(faults).toBeGreaterThan(3);
  });
});
