import { describe, expect, it } from 'vitest';
import type { EngineRequest, RequestActor } from '../../src/core/framework/request.js';
import { dataOf, MemoryStorageWithoutCommits, setup } from './helpers.js';
import { testStorage } from '../support/test-storage.js';

const alice: RequestActor = { display_name: 'token-alice', entity_id: '', client_id: 'c-alice' };
const bob: RequestActor = { display_name: 'bob', entity_id: 'e-bob', client_id: 'e-bob' };
const by = (caller: RequestActor) => ({ actor: async () => caller });

describe('actors of KV changes (Vault 1.21 attribution)', () => {
  it('stay with each version as it leaves the head for an entry document, with and without atomic commits', async () => {
    for (const storage of [testStorage(), new MemoryStorageWithoutCommits()]) {
      const env = setup({ storage });
      const as = (caller: RequestActor, request: EngineRequest) => env.handle({ ...request, ...by(caller) });
      await env.MD('many', { max_versions: 30 });
      for (let version = 1; version <= 14; version++) {
        const caller = version % 2 === 0 ? alice : bob;
        expect((await as(caller, { method: 'POST', path: 'data/many', body: { data: { version } } })).status).toBe(200);
      }
      await as(bob, { method: 'POST', path: 'delete/many', body: { versions: [2, 13] } });
      const versions = dataOf(await env.MR('many')).versions;
      expect(versions['1'].created_by).toEqual({
        actor: 'bob',
        entity_id: 'e-bob',
        client_id: 'e-bob',
        operation: 'update',
      });
      expect(versions['2'].created_by).toEqual({ actor: 'token-alice', client_id: 'c-alice', operation: 'update' });
      expect(versions['2'].deleted_by).toEqual({
        actor: 'bob',
        entity_id: 'e-bob',
        client_id: 'e-bob',
        operation: 'update',
      });
      expect(versions['13'].deleted_by).toMatchObject({ actor: 'bob' });
      expect(versions['14']).toMatchObject({ created_by: { actor: 'token-alice' }, deleted_by: null });
      // A move carries the history over, actors and all.
      if (storage instanceof MemoryStorageWithoutCommits) continue;
      expect((await env.handle({ method: 'POST', path: 'move/many', body: { to: 'moved' } })).status).toBe(204);
      expect(dataOf(await env.MR('moved')).versions['2'].deleted_by).toMatchObject({ actor: 'bob' });
    }
  });

  it('the first write of a key is a create, later ones and writes over metadata-only keys updates', async () => {
    const env = setup();
    await env.handle({ method: 'POST', path: 'data/new', body: { data: { a: 1 } }, ...by(alice) });
    await env.MD('meta', { max_versions: 2 });
    await env.handle({ method: 'POST', path: 'data/meta', body: { data: { a: 1 } }, ...by(alice) });
    expect(dataOf(await env.MR('new')).versions['1'].created_by.operation).toBe('create');
    expect(dataOf(await env.MR('meta')).versions['1'].created_by.operation).toBe('update');
  });

  it('a change whose caller is unknown records none: created_by null, last_updated_by cleared', async () => {
    const env = setup();
    await env.handle({ method: 'POST', path: 'data/k', body: { data: { a: 1 } }, ...by(alice) });
    await env.kv.write('k', { a: 2 });
    await env.handle({ method: 'POST', path: 'data/k', body: { data: { a: 3 } }, actor: async () => undefined });
    const read = dataOf(await env.MR('k'));
    expect(read.versions['2'].created_by).toBeNull();
    expect(read.versions['3'].created_by).toBeNull();
    expect(read.last_updated_by).toBeNull();
    expect((await env.kv.readMetadata('k')).versions['1']!.created_by).toMatchObject({ actor: 'token-alice' });
  });

  it('a destroy and a metadata write record no actor and keep the last one; a scheduled deletion has no deleted_by', async () => {
    const env = setup();
    await env.MD('k', { delete_version_after: '1h' });
    await env.handle({ method: 'POST', path: 'data/k', body: { data: { a: 1 } }, ...by(alice) });
    await env.handle({ method: 'PUT', path: 'destroy/k', body: { versions: [1] }, ...by(bob) });
    await env.handle({ method: 'POST', path: 'metadata/k', body: { max_versions: 3 }, ...by(bob) });
    const read = dataOf(await env.MR('k'));
    expect(read.versions['1']).toMatchObject({ destroyed: true, deleted_by: null });
    expect(read.versions['1'].deletion_time).not.toBe('');
    expect(read.last_updated_by).toMatchObject({ actor: 'token-alice', operation: 'update' });
  });

  it('heads are written in format 3, and a head of format 1 reads as one without actors', async () => {
    const storage = testStorage();
    const env = setup({ storage });
    await env.W('k', { a: 1 });
    const key = 'kv/metadata/k';
    const stored = JSON.parse(new TextDecoder().decode(await storage.get(key))) as Record<string, unknown>;
    expect(stored.format).toBe(3);
    const { format: _format, ...first } = stored;
    await storage.put(key, new TextEncoder().encode(JSON.stringify(first)));
    expect(dataOf(await env.MR('k')).versions['1']).toMatchObject({ created_by: null, deleted_by: null });
    await env.handle({ method: 'DELETE', path: 'data/k', ...by(alice) });
    expect(dataOf(await env.MR('k')).versions['1'].deleted_by).toMatchObject({ operation: 'delete' });
  });

  it.each([
    ['a string', 'alice'],
    ['an object', alice],
  ])("an actor that is %s is the caller's mistake: a clear 400, and nothing is written", async (_name, actor) => {
    const env = setup();
    const request = { method: 'POST', path: 'data/k', body: { data: { a: 1 } }, actor } as unknown as EngineRequest;
    expect(await env.handle(request)).toEqual({
      status: 400,
      body: { errors: ['the request actor must be a function'] },
    });
    expect((await env.R('k')).status).toBe(404);
  });
});
