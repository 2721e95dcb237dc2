import { describe, expect, it } from 'vitest';
import type { KvChangeEvent } from '../../src/kv/index.js';
import { MERGE, setup } from './helpers.js';

const NOW = '2026-03-01T12:00:00Z';

function recorder(env: ReturnType<typeof setup>, prefix = '') {
  const events: KvChangeEvent[] = [];
  const unsubscribe = env.kv.subscribe(prefix, (event) => events.push(event));
  return { events, unsubscribe };
}

describe('change events', () => {
  it('every committed mutation of a key makes exactly one event, in order, with rising revisions', async () => {
    const env = setup();
    const { events } = recorder(env);
    await env.W('app/db', { a: 1 });
    await env.PATCH('app/db', { data: { b: 2 } });
    await env.DEL('app/db');
    await env.versions('undelete', 'app/db', [2]);
    await env.versions('delete', 'app/db', [1]);
    await env.versions('destroy', 'app/db', [1]);
    await env.MD('app/db', { max_versions: 5 });
    await env.MP('app/db', { custom_metadata: { team: 'a' } });
    await env.handle({ method: 'DELETE', path: 'metadata/app/db' });
    expect(events.map(({ operation, version }) => [operation, version])).toEqual([
      ['write', 1],
      ['patch', 2],
      ['delete', 2],
      ['undelete', 2],
      ['delete', 2],
      ['destroy', 2],
      ['metadata-write', 2],
      ['metadata-patch', 2],
      ['metadata-delete', 2],
    ]);
    expect(events.every((event) => event.path === 'app/db' && event.time === NOW)).toBe(true);
    const revisions = events.map((event) => event.revision);
    expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
    expect(new Set(revisions).size).toBe(revisions.length);
  });

  it('a refused or ineffective request makes no event', async () => {
    const env = setup();
    await env.W('k', { a: 1 });
    const { events } = recorder(env);
    expect((await env.W('k', { a: 2 }, 5)).status).toBe(400);
    expect(
      (await env.handle({ method: 'POST', path: 'data/k', body: { data: { a: 2 } }, authorize: () => false })).status,
    ).toBe(403);
    expect((await env.handle({ method: 'POST', path: 'data/k', body: { data: 'nope' } })).status).toBe(400);
    expect((await env.MD('k', { max_versions: 2, metadata_cas: 9 })).status).toBe(400);
    expect(
      (await env.handle({ method: 'PATCH', path: 'data/missing', body: { data: { a: 1 } }, headers: MERGE })).status,
    ).toBe(404);
    // Those that change nothing succeed, and leave the keys as they were.
    expect((await env.DEL('missing')).status).toBe(204);
    expect((await env.versions('undelete', 'k', [7])).status).toBe(204);
    expect((await env.handle({ method: 'DELETE', path: 'metadata/missing' })).status).toBe(204);
    expect((await env.MD('k', {})).status).toBe(204);
    expect((await env.MR('missing')).status).toBe(404);
    expect((await env.MR('k')).body?.data).toMatchObject({
      current_version: 1,
      versions: { 1: { deletion_time: '' } },
    });
    expect(events).toEqual([]);
  });

  it('an event is delivered after the commit: a listener reads the new state', async () => {
    const env = setup();
    const reads: unknown[] = [];
    env.kv.subscribe('', (event) => {
      reads.push(env.kv.read(event.path).then((secret) => secret.data));
    });
    await env.W('k', { a: 1 });
    expect(await Promise.all(reads)).toEqual([{ a: 1 }]);
  });

  it('a prefix selects keys by path; unsubscribing stops delivery', async () => {
    const env = setup();
    const team = recorder(env, 'team/');
    const all = recorder(env);
    await env.W('team/a', { a: 1 });
    await env.W('teammate', { a: 1 });
    team.unsubscribe();
    await env.W('team/b', { a: 1 });
    expect(team.events.map((event) => event.path)).toEqual(['team/a']);
    expect(all.events.map((event) => event.path)).toEqual(['team/a', 'teammate', 'team/b']);
  });

  it('the async iterator yields the same events; break or abort unsubscribes', async () => {
    const env = setup();
    const controller = new AbortController();
    const seen: string[] = [];
    const consumer = (async () => {
      for await (const event of env.kv.events('', { signal: controller.signal })) {
        seen.push(`${event.operation}:${event.path}`);
        if (seen.length === 3) break;
      }
    })();
    await env.W('a', { a: 1 });
    await env.W('b', { a: 1 });
    await env.DEL('a');
    await consumer;
    expect(seen).toEqual(['write:a', 'write:b', 'delete:a']);

    const aborted: string[] = [];
    const second = (async () => {
      for await (const event of env.kv.events('', { signal: controller.signal })) aborted.push(event.path);
    })();
    await env.W('c', { a: 1 });
    controller.abort();
    await second;
    await env.W('d', { a: 1 });
    expect(aborted).toEqual(['c']);
  });

  it('the async iterator works without a signal, waits for events, and ends for good on return()', async () => {
    const errors: unknown[] = [];
    const env = setup({ onEventError: (error) => errors.push(error) });
    const iterator = env.kv.events('');
    // An event that arrives while nobody waits is queued, not an error.
    await env.W('early', { a: 1 });
    expect((await iterator.next()).value).toMatchObject({ path: 'early', operation: 'write' });
    const waiting = iterator.next();
    await env.W('late', { a: 1 });
    expect((await waiting).value).toMatchObject({ path: 'late' });
    expect(await iterator.return!()).toEqual({ value: undefined, done: true });
    await env.W('after', { a: 1 });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    expect(errors).toEqual([]);
  });

  it('a throwing listener neither fails the request nor stops other listeners; its error is reported', async () => {
    const errors: unknown[] = [];
    const env = setup({ onEventError: (error) => errors.push(error) });
    env.kv.subscribe('', () => {
      throw new Error('listener bug');
    });
    const { events } = recorder(env);
    expect((await env.W('k', { a: 1 })).status).toBe(200);
    expect(events).toHaveLength(1);
    expect(errors).toEqual([new Error('listener bug')]);
  });

  it('an async listener that rejects is reported like a throwing one, and never ends the process as an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const errors: unknown[] = [];
      const reporting = setup({ onEventError: (error) => errors.push(error) });
      reporting.kv.subscribe('', async () => {
        throw new Error('async listener bug');
      });
      expect((await reporting.W('k', { a: 1 })).status).toBe(200);
      // Without onEventError, and with an onEventError that throws itself, the failure is dropped, not raised.
      const silent = setup();
      const throwing = setup({
        onEventError: () => {
          throw new Error('reporter bug');
        },
      });
      for (const env of [silent, throwing]) {
        env.kv.subscribe('', async () => {
          throw new Error('unreported listener bug');
        });
        expect((await env.W('k', { a: 1 })).status).toBe(200);
      }
      throwing.kv.subscribe('', () => {
        throw new Error('sync listener bug');
      });
      expect((await throwing.W('sync', { a: 1 })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(errors).toEqual([new Error('async listener bug')]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a key created again after its deletion makes events again', async () => {
    const env = setup();
    const { events } = recorder(env);
    await env.W('k', { a: 1 });
    await env.handle({ method: 'DELETE', path: 'metadata/k' });
    await env.W('k', { a: 2 });
    expect(events.map((event) => [event.operation, event.version])).toEqual([
      ['write', 1],
      ['metadata-delete', 1],
      ['write', 1],
    ]);
  });

  it('a recursive folder delete makes one metadata-delete event per removed key', async () => {
    const env = setup();
    for (const path of ['f/a', 'f/b/c', 'g']) await env.W(path, { a: 1 });
    const { events } = recorder(env);
    expect((await env.handle({ method: 'DELETE', path: 'metadata/f/', query: { recursive: 'true' } })).status).toBe(
      204,
    );
    expect(events.map((event) => `${event.operation}:${event.path}`).sort()).toEqual([
      'metadata-delete:f/a',
      'metadata-delete:f/b/c',
    ]);
    await env.W('h/i', { a: 1 });
    await env.kv.deleteFolder('h');
    expect(events.at(-1)).toMatchObject({ operation: 'metadata-delete', path: 'h/i' });
  });

  it('a move makes the target arrive and the source go; a copy makes only the target arrive', async () => {
    const env = setup();
    await env.W('app/a', { v: 1 });
    await env.W('app/a', { v: 2 });
    const { events } = recorder(env);
    expect((await env.handle({ method: 'POST', path: 'copy/app/a', body: { to: 'app/b' } })).status).toBe(204);
    expect((await env.handle({ method: 'POST', path: 'move/app/a', body: { to: 'app/c' } })).status).toBe(204);
    expect((await env.handle({ method: 'POST', path: 'move/app/a', body: { to: 'app/d' } })).status).toBe(404);
    const seen = events.map(({ path, operation, version }) => [path, operation, version]);
    // Order is promised per key: the move's two keys change in one commit, and over a storage that also announces
    // that commit to this process (PostgreSQL's NOTIFY) either key's event may come first.
    expect(seen[0]).toEqual(['app/b', 'copy', 2]);
    expect(seen.slice(1).sort()).toEqual([
      ['app/a', 'metadata-delete', 2],
      ['app/c', 'move', 2],
    ]);
    // The moved key's later changes continue from its arrival.
    const arrival = events.find((event) => event.path === 'app/c')!;
    await env.W('app/c', { v: 3 });
    expect(events.at(-1)).toMatchObject({ path: 'app/c', operation: 'write', version: 3 });
    expect(events.at(-1)!.revision).toBeGreaterThan(arrival.revision);
  });
});
