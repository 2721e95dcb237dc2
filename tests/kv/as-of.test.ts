import { describe, expect, it } from 'vitest';
import { InvalidRequest, NotFound } from '../../src/lib/errors.js';
import { dataOf, expectError, expectPlain404, setup } from './helpers.js';

/** GET data/<key>?as_of=<time>: the version that was current then, from what the key's record keeps. */

const T0 = '2026-03-01T12:00:00Z';

function at(clock: { set(time: string): void }, time: string) {
  clock.set(time);
}

/** A key written at :00:10 (v1), :00:20 (v2) and :00:30 (v3), read as of a time. */
async function history() {
  const s = setup();
  at(s.clock, '2026-03-01T12:00:10Z');
  await s.W('k', { n: 1 });
  at(s.clock, '2026-03-01T12:00:20Z');
  await s.W('k', { n: 2 });
  at(s.clock, '2026-03-01T12:00:30Z');
  await s.W('k', { n: 3 });
  at(s.clock, '2026-03-01T12:01:00Z');
  const asOf = (time: string, path = 'k') => s.handle({ method: 'GET', path: `data/${path}`, query: { as_of: time } });
  return { ...s, asOf };
}

describe('GET data/<key>?as_of=', () => {
  it('answers the version current at the time: the newest created at or before it', async () => {
    const { asOf } = await history();
    expect(dataOf(await asOf('2026-03-01T12:00:10Z')).data).toEqual({ n: 1 });
    expect(dataOf(await asOf('2026-03-01T12:00:19.999Z')).data).toEqual({ n: 1 });
    expect(dataOf(await asOf('2026-03-01T12:00:20Z')).metadata.version).toBe(2);
    expect(dataOf(await asOf('2026-03-01T13:00:25+01:00')).data).toEqual({ n: 2 });
    expect(dataOf(await asOf('2026-03-01T12:00:59Z')).data).toEqual({ n: 3 });
  });

  it('is a 404 before the key existed, and for a key that does not exist', async () => {
    const { asOf } = await history();
    expectPlain404(await asOf(T0));
    expectPlain404(await asOf('2026-03-01T12:00:50Z', 'nothing'));
  });

  it('is a 404 with the metadata where the version was deleted then, and live before its deletion', async () => {
    const s = await history();
    await s.DEL('k'); // v3 deleted at 12:01:00
    const then = await s.asOf('2026-03-01T12:01:00Z');
    expect(then.status).toBe(404);
    expect(dataOf(then)).toMatchObject({ data: null, metadata: { version: 3, deletion_time: '2026-03-01T12:01:00Z' } });
    expect(dataOf(await s.asOf('2026-03-01T12:00:59Z')).data).toEqual({ n: 3 });
  });

  it('is a 404 for a version destroyed now, even at a time it was readable', async () => {
    const s = await history();
    await s.versions('destroy', 'k', [2]);
    const then = await s.asOf('2026-03-01T12:00:25Z');
    expect(then.status).toBe(404);
    expect(dataOf(then).metadata).toMatchObject({ version: 2, destroyed: true });
    expect(dataOf(await s.asOf('2026-03-01T12:00:15Z')).data).toEqual({ n: 1 });
  });

  it('is a 404 where the version current then was pruned', async () => {
    const s = await history();
    await s.MD('k', { max_versions: 2 });
    await s.W('k', { n: 4 }); // prunes v1 and v2
    expectPlain404(await s.asOf('2026-03-01T12:00:15Z'));
    expect(dataOf(await s.asOf('2026-03-01T12:00:35Z')).data).toEqual({ n: 3 });
  });

  it('knows nothing from before a metadata delete: the key begins again with its next write', async () => {
    const s = await history();
    await s.handle({ method: 'DELETE', path: 'metadata/k' });
    s.clock.set('2026-03-01T12:02:00Z');
    await s.W('k', { n: 5 });
    expectPlain404(await s.asOf('2026-03-01T12:00:40Z'));
    expect(dataOf(await s.asOf('2026-03-01T12:02:00Z')).data).toEqual({ n: 5 });
  });

  it('refuses a bad time, a future time and as_of with version (400)', async () => {
    const s = await history();
    for (const bad of ['yesterday', '2026-03-01', '2026-03-01T12:00:10', '1700000000', '2026-13-01T00:00:00Z', ''])
      expectError(await s.asOf(bad), 400, 'RFC 3339');
    expectError(await s.asOf('2026-03-01T12:01:01Z'), 400, 'future');
    const both = await s.handle({ method: 'GET', path: 'data/k', query: { as_of: T0, version: '1' } });
    expectError(both, 400, 'as_of and version');
  });

  it('reads versions whose entries have left the head (a key keeping more than ten)', async () => {
    const s = setup();
    const asOf = (time: string) => s.handle({ method: 'GET', path: 'data/many', query: { as_of: time } });
    await s.MD('many', { max_versions: 30 });
    for (let n = 1; n <= 25; n++) {
      s.clock.set(Date.parse('2026-03-01T12:00:00Z') + n * 1000);
      await s.W('many', { n });
    }
    expect(dataOf(await asOf('2026-03-01T12:00:03.5Z')).data).toEqual({ n: 3 });
    expect(dataOf(await asOf('2026-03-01T12:00:25Z')).data).toEqual({ n: 25 });
    const { restored } = await s.kv.restore('many', { asOf: '2026-03-01T12:00:03Z' });
    expect(restored).toEqual(['many']);
    expect((await s.kv.read('many')).data).toEqual({ n: 3 });
  });

  it('the typed read takes asOf as a Date or text, with the same answers and errors', async () => {
    const { kv } = await history();
    expect((await kv.read('k', { asOf: new Date('2026-03-01T12:00:21Z') })).data).toEqual({ n: 2 });
    expect((await kv.read('k', { asOf: '2026-03-01T12:00:11Z' })).metadata.version).toBe(1);
    await expect(kv.read('k', { asOf: T0 })).rejects.toBeInstanceOf(NotFound);
    await expect(kv.read('k', { asOf: 'soon' })).rejects.toBeInstanceOf(InvalidRequest);
    await expect(kv.read('k', { asOf: T0, version: 2 })).rejects.toBeInstanceOf(InvalidRequest);
  });
});
