import { describe, expect, it } from 'vitest';
import { Acl } from '../../src/acl/acl.js';
import { parsePolicy } from '../../src/acl/policy.js';
import { KvEngine, type KvChangeEvent } from '../../src/kv/index.js';
import { InvalidRequest } from '../../src/lib/errors.js';
import { dataOf, expectError, setup } from './helpers.js';

/** POST restore/<path>: keys brought back to their readable state at a past time, through the normal write path. */

const T = '2026-03-01T12:00:30Z';

/**
 * Folder t/ at T: a={v:1}, b={v:1}, d={v:1}, e={v:1}; then after T: a changes, c is created, d is deleted, e's
 * version of then is destroyed (and e written again), b stays. u (outside the folder) changes too.
 */
async function incident() {
  const s = setup();
  s.clock.set('2026-03-01T12:00:10Z');
  for (const key of ['t/a', 't/b', 't/d', 't/e', 'u']) await s.W(key, { v: 1 });
  s.clock.set('2026-03-01T12:01:00Z');
  await s.W('t/a', { v: 2 });
  await s.W('t/c', { v: 2 });
  await s.DEL('t/d');
  await s.versions('destroy', 't/e', [1]);
  await s.W('t/e', { v: 2 });
  await s.W('u', { v: 2 });
  s.clock.set('2026-03-01T12:02:00Z');
  const restore = (path: string, body: Record<string, unknown>, authorize?: any) =>
    s.handle({ method: 'POST', path: `restore/${path}`, body, authorize });
  const state = async () =>
    Object.fromEntries(
      await Promise.all(
        ['t/a', 't/b', 't/c', 't/d', 't/e', 'u'].map(async (key) => {
          const read = await s.R(key);
          return [key, read.status === 200 ? dataOf(read).data : read.status] as const;
        }),
      ),
    );
  const versions = async (key: string) => dataOf(await s.MR(key)).current_version as number;
  return { ...s, restore, state, versions };
}

const REPORT = {
  restored: ['t/a', 't/d'],
  deleted: ['t/c'],
  unchanged: ['t/b'],
  skipped: [],
  destroyed: ['t/e'],
  complete: true,
};

describe('POST restore/<folder>/', () => {
  it('writes the old data where it differs, soft-deletes what did not exist, reports destroyed versions', async () => {
    const s = await incident();
    const answer = await s.restore('t/', { as_of: T });
    expect(answer.status).toBe(200);
    expect(dataOf(answer)).toEqual({ ...REPORT, dry_run: false });
    expect(await s.state()).toEqual({
      't/a': { v: 1 },
      't/b': { v: 1 },
      't/c': 404,
      't/d': { v: 1 },
      't/e': { v: 2 },
      u: { v: 2 },
    });
    // One new version per restored key; none for the unchanged, the deleted or the destroyed.
    expect(await s.versions('t/a')).toBe(3);
    expect(await s.versions('t/b')).toBe(1);
    expect(await s.versions('t/c')).toBe(1);
    expect(await s.versions('t/e')).toBe(2);
  });

  it('emits a change event for each write it makes, and none for keys it leaves alone', async () => {
    const s = await incident();
    const events: KvChangeEvent[] = [];
    s.kv.subscribe('', (event) => events.push(event));
    await s.restore('t/', { as_of: T });
    expect(events.map(({ path, operation, version }) => ({ path, operation, version }))).toEqual([
      { path: 't/a', operation: 'write', version: 3 },
      { path: 't/c', operation: 'delete', version: 1 },
      { path: 't/d', operation: 'write', version: 2 },
    ]);
  });

  it('dry_run answers the same report and changes nothing', async () => {
    const s = await incident();
    const before = await s.state();
    const dry = await s.restore('t/', { as_of: T, dry_run: true });
    expect(dataOf(dry)).toEqual({ ...REPORT, dry_run: true });
    expect(await s.state()).toEqual(before);
    expect(await s.versions('t/a')).toBe(2);
  });

  it('a second run finds everything restored and writes nothing', async () => {
    const s = await incident();
    await s.restore('t/', { as_of: T });
    const again = dataOf(await s.restore('t/', { as_of: T }));
    expect(again).toMatchObject({
      restored: [],
      deleted: [],
      unchanged: ['t/a', 't/b', 't/c', 't/d'],
      destroyed: ['t/e'],
    });
    expect(await s.versions('t/a')).toBe(3);
  });

  it('pages through a folder with limit and after, and each page is a whole restore', async () => {
    const s = await incident();
    const first = dataOf(await s.restore('t/', { as_of: T, limit: 2 }));
    expect(first).toMatchObject({ restored: ['t/a'], unchanged: ['t/b'], complete: false, next: 'b' });
    const second = dataOf(await s.restore('t/', { as_of: T, limit: 2, after: first.next }));
    expect(second).toMatchObject({ deleted: ['t/c'], restored: ['t/d'], complete: false, next: 'd' });
    const last = dataOf(await s.restore('t/', { as_of: T, limit: 2, after: second.next }));
    expect(last).toEqual({ ...REPORT, restored: [], deleted: [], unchanged: [], dry_run: false });
    expect(last.next).toBeUndefined();
  });

  it('the root restores every key of the engine', async () => {
    const s = await incident();
    const answer = dataOf(await s.restore('', { as_of: T }));
    expect(answer.restored).toEqual(['t/a', 't/d', 'u']);
    expect(await s.state()).toMatchObject({ u: { v: 1 } });
  });

  it('restores keys that require check-and-set: its write is conditioned on the version it compared', async () => {
    const s = await incident();
    await s.MD('t/a', { cas_required: true });
    await s.config({ cas_required: true });
    expect(dataOf(await s.restore('t/', { as_of: T })).restored).toEqual(['t/a', 't/d']);
    expect(await s.state()).toMatchObject({ 't/a': { v: 1 }, 't/d': { v: 1 } });
  });
});

describe('two engines over one storage restoring at once', () => {
  it('write each key once: whichever commits second finds it unchanged', async () => {
    const s = await incident();
    const other = new KvEngine({ storage: s.storage, clock: s.clock });
    const reports = await Promise.all([s.kv, other, s.kv, other].map((kv) => kv.restore('t/', { asOf: T })));
    expect(reports.flatMap((report) => report.restored).sort()).toEqual(['t/a', 't/d']);
    expect(reports.flatMap((report) => report.deleted)).toEqual(['t/c']);
    expect(await s.versions('t/a')).toBe(3);
    expect(await s.versions('t/d')).toBe(2);
  });
});

describe('POST restore/<key>', () => {
  it('a key whose version then was deleted then is soft-deleted now', async () => {
    const s = setup();
    s.clock.set('2026-03-01T12:00:10Z');
    await s.W('w', { v: 1 });
    s.clock.set('2026-03-01T12:00:20Z');
    await s.DEL('w');
    s.clock.set('2026-03-01T12:01:00Z');
    await s.W('w', { v: 2 });
    const answer = await s.handle({ method: 'POST', path: 'restore/w', body: { as_of: T } });
    expect(dataOf(answer)).toMatchObject({ deleted: ['w'] });
    expect((await s.R('w')).status).toBe(404);
    expect(dataOf(await s.MR('w')).current_version).toBe(2);
  });

  it('restores one key and leaves its neighbours alone', async () => {
    const s = await incident();
    expect(dataOf(await s.restore('t/a', { as_of: T }))).toMatchObject({ restored: ['t/a'], complete: true });
    expect(await s.state()).toMatchObject({ 't/a': { v: 1 }, 't/c': { v: 2 }, u: { v: 2 } });
  });

  it('a key that exists neither then nor now is unchanged', async () => {
    const s = await incident();
    expect(dataOf(await s.restore('t/none', { as_of: T })).unchanged).toEqual(['t/none']);
  });

  it('the typed restore answers the same', async () => {
    const s = await incident();
    const dry = await s.kv.restore('t/', { asOf: new Date(T), dryRun: true });
    expect(dry).toEqual({ ...REPORT, dry_run: true });
    expect(await s.kv.restore('t/d', { asOf: T })).toMatchObject({ restored: ['t/d'] });
    expect((await s.kv.read('t/d')).data).toEqual({ v: 1 });
    await expect(s.kv.restore('t/', { asOf: 'now' })).rejects.toBeInstanceOf(InvalidRequest);
    await expect(s.kv.restore('t/', { asOf: T, limit: 1001 })).rejects.toBeInstanceOf(InvalidRequest);
  });
});

describe('bad input is a 400', () => {
  it('a missing, malformed or future as_of; a page limit outside 1 to 1000', async () => {
    const s = await incident();
    expectError(await s.restore('t/', {}), 400, 'missing as_of');
    expectError(await s.restore('t/', { as_of: 'last tuesday' }), 400, 'RFC 3339');
    expectError(await s.restore('t/', { as_of: '2026-03-01T12:02:01Z' }), 400, 'future');
    expectError(await s.restore('t/', { as_of: T, limit: 100_000 }), 400, 'limit');
    expectError(await s.restore('t/', { as_of: T, limit: 0 }), 400, 'limit');
    expectError(await s.restore('t/', { as_of: T, dry_run: 'perhaps' }), 400, 'dry_run');
    expect(await s.versions('t/a')).toBe(2);
  });

  it('a folder named without its trailing / (to a caller who may list it)', async () => {
    const s = await incident();
    expectError(await s.restore('t', { as_of: T }), 400, 'restore/t/');
    const acl = new Acl([
      { name: 'p', rules: parsePolicy('path "secret/*" { capabilities = ["read", "update"] }') },
    ]).authorizer('secret/');
    // Without list on the folder, the path is just a key that does not exist.
    expect(dataOf(await s.restore('t', { as_of: T }, acl)).unchanged).toEqual(['t']);
  });
});

function acl(hcl: string) {
  return new Acl([{ name: 'p', rules: parsePolicy(hcl) }]).authorizer('secret/');
}

const ROUTE =
  'path "secret/restore/*" { capabilities = ["update"] }\npath "secret/metadata/*" { capabilities = ["list"] }\n';

describe('authorization, key by key', () => {
  it('read without update: every key skipped, nothing told, nothing changed', async () => {
    const s = await incident();
    const answer = dataOf(
      await s.restore('t/', { as_of: T }, acl(`${ROUTE}path "secret/data/*" { capabilities = ["read"] }`)),
    );
    expect(answer).toMatchObject({ restored: [], deleted: [], unchanged: [], destroyed: [] });
    expect(answer.skipped).toEqual(['t/a', 't/b', 't/c', 't/d', 't/e']);
    expect(await s.versions('t/a')).toBe(2);
  });

  it('update without read: every key skipped', async () => {
    const s = await incident();
    const answer = dataOf(
      await s.restore('t/', { as_of: T }, acl(`${ROUTE}path "secret/data/*" { capabilities = ["update", "delete"] }`)),
    );
    expect(answer.skipped).toEqual(['t/a', 't/b', 't/c', 't/d', 't/e']);
    expect(await s.state()).toMatchObject({ 't/a': { v: 2 }, 't/c': { v: 2 } });
  });

  it('a folder with a denied key: that key is skipped, the others restored', async () => {
    const s = await incident();
    const hcl = `${ROUTE}path "secret/data/*" { capabilities = ["read", "update", "delete"] }\npath "secret/data/t/a" { capabilities = ["deny"] }`;
    const answer = dataOf(await s.restore('t/', { as_of: T }, acl(hcl)));
    expect(answer).toEqual({ ...REPORT, restored: ['t/d'], skipped: ['t/a'], dry_run: false });
    expect(await s.state()).toMatchObject({ 't/a': { v: 2 }, 't/c': 404, 't/d': { v: 1 } });
  });

  it('a key whose name a listing would hide (a deny on its metadata) is left out of the report', async () => {
    const s = await incident();
    const hcl = `${ROUTE}path "secret/data/*" { capabilities = ["read", "update", "delete"] }\npath "secret/data/t/a" { capabilities = ["deny"] }\npath "secret/metadata/t/a" { capabilities = ["deny"] }`;
    const answer = dataOf(await s.restore('t/', { as_of: T }, acl(hcl)));
    expect(answer).toEqual({ ...REPORT, restored: ['t/d'], dry_run: false });
    expect(await s.state()).toMatchObject({ 't/a': { v: 2 } });
  });

  it('a soft delete needs delete on data/<key>: without it the key is skipped', async () => {
    const s = await incident();
    const answer = dataOf(
      await s.restore('t/', { as_of: T }, acl(`${ROUTE}path "secret/data/*" { capabilities = ["read", "update"] }`)),
    );
    expect(answer).toMatchObject({ restored: ['t/a', 't/d'], deleted: [], skipped: ['t/c'] });
    expect(await s.state()).toMatchObject({ 't/c': { v: 2 } });
  });

  it('the route needs update on restore/<path>, and a folder needs list on metadata/<folder>/ (403)', async () => {
    const s = await incident();
    const data = 'path "secret/data/*" { capabilities = ["read", "update", "delete"] }\n';
    const noRoute = acl(`${data}path "secret/metadata/*" { capabilities = ["list"] }`);
    expect((await s.restore('t/', { as_of: T }, noRoute)).status).toBe(403);
    const noList = acl(`${data}path "secret/restore/*" { capabilities = ["update"] }`);
    expect((await s.restore('t/', { as_of: T }, noList)).status).toBe(403);
    expect(dataOf(await s.restore('t/a', { as_of: T }, noList)).restored).toEqual(['t/a']);
  });
});
