import { describe, expect, it } from 'vitest';
import { dataOf, expectError, expectPlain404, setup } from './helpers.js';

const NOW = '2026-03-01T12:00:00Z';

async function twoVersions() {
  const env = setup();
  await env.W('foo', { v: 1 });
  await env.W('foo', { v: 2 });
  return env;
}

describe('delete, undelete, destroy', () => {
  it('37-38: delete then undelete versions given as "1,2"', async () => {
    const env = await twoVersions();
    expect(await env.versions('delete', 'foo', '1,2')).toEqual({ status: 204 });
    let versions = dataOf(await env.MR('foo')).versions;
    expect([versions['1'].deletion_time, versions['2'].deletion_time]).toEqual([NOW, NOW]);
    expect((await env.R('foo', 1)).status).toBe(404);
    expect(await env.versions('undelete', 'foo', '1,2')).toEqual({ status: 204 });
    versions = dataOf(await env.MR('foo')).versions;
    expect([versions['1'].deletion_time, versions['2'].deletion_time]).toEqual(['', '']);
    expect(dataOf(await env.R('foo', 1)).data).toEqual({ v: 1 });
  });

  it('39: destroy marks versions destroyed and removes their data', async () => {
    const env = await twoVersions();
    expect(await env.versions('destroy', 'foo', '1,2')).toEqual({ status: 204 });
    const versions = dataOf(await env.MR('foo')).versions;
    expect([versions['1'].destroyed, versions['2'].destroyed]).toEqual([true, true]);
    const read = await env.R('foo', 1);
    expect(read.status).toBe(404);
    expect(dataOf(read)).toMatchObject({ data: null, metadata: { destroyed: true, version: 1 } });
    expect(await env.storage.list('kv/versions/')).toEqual([]);
  });

  it.each([
    ['delete', 'No version number provided'],
    ['undelete', 'No version number provided'],
    ['destroy', 'no version number provided'],
  ] as const)('40: %s without versions answers 400 %s', async (endpoint, message) => {
    const env = await twoVersions();
    for (const body of [{}, { versions: [] }, { versions: '' }]) {
      const response = await env.handle({ method: 'POST', path: `${endpoint}/foo`, body });
      expect(response).toEqual({ status: 400, body: { errors: [message] } });
    }
  });

  it.each(['delete', 'undelete', 'destroy'] as const)(
    '41: %s on a missing key answers 204 and creates nothing',
    async (endpoint) => {
      const env = setup();
      expect(await env.versions(endpoint, 'foo', [1])).toEqual({ status: 204 });
      expectPlain404(await env.MR('foo'));
    },
  );

  it('42: undelete of a destroyed version leaves it destroyed', async () => {
    const env = await twoVersions();
    await env.versions('destroy', 'foo', [1]);
    await env.versions('undelete', 'foo', [1]);
    expect(dataOf(await env.MR('foo')).versions['1'].destroyed).toBe(true);
    expect((await env.R('foo', 1)).status).toBe(404);
  });

  it('43: a second DELETE keeps the original deletion_time', async () => {
    const env = await twoVersions();
    await env.DEL('foo');
    env.clock.advance(600);
    await env.DEL('foo');
    await env.versions('delete', 'foo', [2]);
    expect(dataOf(await env.MR('foo')).versions['2'].deletion_time).toBe(NOW);
  });

  it('44: destroy of a version that does not exist answers 204 and changes nothing', async () => {
    const env = await twoVersions();
    const before = dataOf(await env.MR('foo'));
    expect(await env.versions('destroy', 'foo', [99])).toEqual({ status: 204 });
    expect(dataOf(await env.MR('foo'))).toEqual(before);
  });

  it('accepts versions as [1,2], ["1","2"], "1,2" and 1; refuses non-numbers', async () => {
    for (const versions of [[1, 2], ['1', '2'], '1,2']) {
      const env = await twoVersions();
      await env.versions('delete', 'foo', versions);
      expect((await env.R('foo', 2)).status).toBe(404);
    }
    const env = await twoVersions();
    await env.versions('delete', 'foo', 1);
    expect((await env.R('foo', 1)).status).toBe(404);
    expectError(await env.versions('delete', 'foo', ['one']), 400, 'versions');
  });

  it('DELETE data on a key without versions, or whose head is destroyed, answers 204 and changes nothing', async () => {
    const env = setup();
    expect(await env.DEL('foo')).toEqual({ status: 204 });
    expectPlain404(await env.MR('foo'));
    await env.W('foo', { a: 1 });
    await env.versions('destroy', 'foo', [1]);
    expect(await env.DEL('foo')).toEqual({ status: 204 });
    expect(dataOf(await env.MR('foo')).versions['1'].deletion_time).toBe('');
  });

  it('DELETE data soft-deletes only the current version; the older one stays readable', async () => {
    const env = await twoVersions();
    await env.DEL('foo');
    expect(dataOf(await env.R('foo', 1)).data).toEqual({ v: 1 });
    expect(dataOf(await env.MR('foo')).current_version).toBe(2);
  });

  it('a destroyed version keeps its deletion time; destroy cannot be undone by a write', async () => {
    const env = await twoVersions();
    await env.versions('delete', 'foo', [1]);
    await env.versions('destroy', 'foo', [1]);
    await env.W('foo', { v: 3 });
    expect(dataOf(await env.MR('foo')).versions['1']).toEqual({
      created_by: null,
      created_time: NOW,
      deleted_by: null,
      deletion_time: NOW,
      destroyed: true,
    });
  });

  it('pruned versions are ignored by delete, undelete and destroy', async () => {
    const env = setup();
    await env.MD('foo', { max_versions: 1 });
    await env.W('foo', { v: 1 });
    await env.W('foo', { v: 2 });
    for (const endpoint of ['delete', 'undelete', 'destroy'] as const)
      expect(await env.versions(endpoint, 'foo', [1])).toEqual({ status: 204 });
    expect(Object.keys(dataOf(await env.MR('foo')).versions)).toEqual(['2']);
  });
});

describe('delete_version_after (decisions 3 and 8)', () => {
  it.each([
    ['0s', '0s', undefined],
    ['0s', '3h', 3],
    ['3h', '0s', 3],
    ['6h', '3h', 3],
    ['3h', '6h', 3],
    ['-1s', '0s', undefined],
    ['-1s', '3h', undefined],
  ])(
    '77: engine %s, key %s: lifetime %s h, in the write, the read, and re-armed by undelete',
    async (engine, key, hours) => {
      const env = setup();
      await env.config({ delete_version_after: engine });
      await env.MD('foo', { max_versions: 2, delete_version_after: key });
      const expected = (from: string) =>
        hours === undefined ? '' : new Date(Date.parse(from) + hours * 3600_000).toISOString().replace('.000Z', 'Z');
      expect(dataOf(await env.W('foo', { a: 1 })).deletion_time).toBe(expected(NOW));
      expect(dataOf(await env.R('foo')).metadata.deletion_time).toBe(expected(NOW));
      await env.versions('delete', 'foo', [1]);
      env.clock.advance(90);
      await env.versions('undelete', 'foo', [1]);
      expect(dataOf(await env.MR('foo')).versions['1'].deletion_time).toBe(expected('2026-03-01T12:01:30Z'));
    },
  );

  it('78: a negative key value is refused', async () => {
    expectError(await setup().MD('foo', { delete_version_after: '-1h' }), 400, 'cannot provide negative value');
  });

  it('79: expiry is lazy and inclusive; DELETE keeps the time; undelete re-arms it', async () => {
    const env = setup();
    await env.config({ delete_version_after: '2s' });
    await env.W('foo', { a: 1 });
    const read = await env.R('foo');
    expect(read.status).toBe(200);
    expect(dataOf(read).metadata.deletion_time).toBe('2026-03-01T12:00:02Z');
    env.clock.advance(1.999);
    expect((await env.R('foo')).status).toBe(200);
    env.clock.advance(0.001);
    const expired = await env.R('foo');
    expect(expired.status).toBe(404);
    expect(dataOf(expired).metadata.deletion_time).toBe('2026-03-01T12:00:02Z');
    env.clock.advance(10);
    await env.DEL('foo');
    expect(dataOf(await env.MR('foo')).versions['1'].deletion_time).toBe('2026-03-01T12:00:02Z');
    await env.versions('undelete', 'foo', [1]);
    const back = await env.R('foo');
    expect(back.status).toBe(200);
    expect(dataOf(back).metadata.deletion_time).toBe('2026-03-01T12:00:14Z');
  });

  it('decision 8: a DELETE at time t hides the version from a read at the same instant', async () => {
    const env = setup();
    await env.W('foo', { a: 1 });
    await env.DEL('foo');
    expect((await env.R('foo')).status).toBe(404);
  });

  it('a DELETE pulls a future scheduled deletion forward to now', async () => {
    const env = setup();
    await env.config({ delete_version_after: '1h' });
    await env.W('foo', { a: 1 });
    env.clock.advance(60);
    await env.DEL('foo');
    expect(dataOf(await env.MR('foo')).versions['1'].deletion_time).toBe('2026-03-01T12:01:00Z');
  });

  it('undelete of a live version with a future deletion restarts its timer', async () => {
    const env = setup();
    await env.config({ delete_version_after: '1h' });
    await env.W('foo', { a: 1 });
    env.clock.advance(1800);
    await env.versions('undelete', 'foo', [1]);
    expect(dataOf(await env.MR('foo')).versions['1'].deletion_time).toBe('2026-03-01T13:30:00Z');
  });
});
