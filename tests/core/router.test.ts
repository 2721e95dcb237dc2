import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Dispatcher } from '../../src/core/framework/router.js';
import { operation, route } from '../../src/core/framework/routing-table.js';
import { int, str } from '../../src/core/framework/fields.js';
import { ok, noContent, listResponse } from '../../src/core/framework/response.js';
import { CloudUnavailable, InvalidRequest, NotFound } from '../../src/lib/errors.js';
import type { CapabilityCheck, EngineRequest } from '../../src/core/framework/request.js';

function makeDispatcher(onInternalError?: (error: unknown) => void) {
  const store = new Map<string, string>();
  const writes: string[] = [];
  const table = [
    route({
      pattern: 'items/:name+',
      fields: z.object({ value: str().optional(), version: int({ min: 0 }).optional() }),
      exists: async ({ params }) => store.has(params.name as string),
      operations: {
        read: async ({ params, fields }) => {
          const value = store.get(params.name as string);
          if (value === undefined) throw new NotFound();
          return ok({ value, version: fields.version ?? 0 });
        },
        write: async ({ params, fields, capability }) => {
          writes.push(`${capability}:${params.name}`);
          store.set(params.name as string, fields.value ?? '');
          return noContent();
        },
        patch: operation(
          z.object({ value: str() }),
          async ({ params, fields }) => {
            store.set(params.name as string, `${store.get(params.name as string) ?? ''}${fields.value}`);
            return noContent();
          },
          { mediaTypes: ['application/merge-patch+json'] },
        ),
        delete: async ({ params }) => {
          store.delete(params.name as string);
          return noContent();
        },
      },
    }),
    route({
      pattern: 'items/:folder*',
      operations: { list: async () => listResponse([...store.keys()].sort()) },
    }),
    route({
      pattern: 'open',
      unauthenticated: true,
      operations: { write: async ({ capability }) => ok({ capability: capability ?? null }) },
    }),
    route({
      pattern: 'boom',
      operations: {
        read: async () => {
          throw new Error('secret-bearing driver text');
        },
      },
    }),
    route({
      pattern: 'cloud',
      operations: {
        read: async () => {
          throw new CloudUnavailable('cloud down');
        },
      },
    }),
    route({
      pattern: 'bad',
      operations: {
        read: async () => {
          throw new InvalidRequest('named problem');
        },
      },
    }),
  ];
  return { dispatcher: new Dispatcher(table, { onInternalError }), store, writes };
}

describe('Dispatcher', () => {
  it('routes by pattern and passes parsed fields and path parameters', async () => {
    const { dispatcher } = makeDispatcher();
    await dispatcher.handle({ method: 'PUT', path: 'items/a/b', body: { value: 'x' } });
    const read = await dispatcher.handle({ method: 'GET', path: 'items/a/b', query: { version: '3' } });
    expect(read).toEqual({ status: 200, body: { data: { value: 'x', version: 3 } } });
  });

  it('turns GET ?list=true into LIST and always asks with a trailing slash', async () => {
    const { dispatcher } = makeDispatcher();
    await dispatcher.handle({ method: 'POST', path: 'items/a', body: { value: '1' } });
    const checks: CapabilityCheck[] = [];
    const authorize = (check: CapabilityCheck) => (checks.push(check), true);
    const viaGet = await dispatcher.handle({ method: 'GET', path: 'items', query: { list: 'true' }, authorize });
    const viaList = await dispatcher.handle({ method: 'LIST', path: 'items/', authorize });
    expect(viaGet).toEqual({ status: 200, body: { data: { keys: ['a'] } } });
    expect(viaList).toEqual(viaGet);
    expect(checks).toEqual([
      { capability: 'list', path: 'items/' },
      { capability: 'list', path: 'items/' },
    ]);
  });

  it('asks for create when the object is missing and update when it exists', async () => {
    const { dispatcher, writes } = makeDispatcher();
    const checks: CapabilityCheck[] = [];
    const authorize = (check: CapabilityCheck) => (checks.push(check), true);
    await dispatcher.handle({ method: 'POST', path: 'items/k', body: { value: '1' }, authorize });
    await dispatcher.handle({ method: 'PUT', path: 'items/k', body: { value: '2' }, authorize });
    expect(checks.map((c) => c.capability)).toEqual(['create', 'update']);
    expect(writes).toEqual(['create:k', 'update:k']);
  });

  it('answers 403 without running the handler when authorize refuses', async () => {
    const { dispatcher, store } = makeDispatcher();
    for (const request of [
      { method: 'POST', path: 'items/k', body: { value: '1' } },
      { method: 'DELETE', path: 'items/k' },
      {
        method: 'PATCH',
        path: 'items/k',
        body: { value: '1' },
        headers: { 'content-type': 'application/merge-patch+json' },
      },
    ] as EngineRequest[]) {
      const response = await dispatcher.handle({ ...request, authorize: async () => false });
      expect(response).toEqual({ status: 403, body: { errors: ['permission denied'] } });
    }
    expect(store.size).toBe(0);
  });

  it('asks for the capability the operation needs', async () => {
    const { dispatcher } = makeDispatcher();
    const seen: string[] = [];
    const authorize = ({ capability }: CapabilityCheck) => (seen.push(capability), true);
    await dispatcher.handle({ method: 'GET', path: 'items/k', authorize });
    await dispatcher.handle({ method: 'DELETE', path: 'items/k', authorize });
    await dispatcher.handle({
      method: 'PATCH',
      path: 'items/k',
      body: { value: 'v' },
      headers: { 'Content-Type': 'application/merge-patch+json' },
      authorize,
    });
    expect(seen).toEqual(['read', 'delete', 'patch']);
  });

  it('runs no existence check when there is no authorize callback to ask', async () => {
    const existence = vi.fn(async () => true);
    const dispatcher = new Dispatcher([
      route({
        pattern: 'x',
        exists: existence,
        operations: { write: async ({ capability }) => ok({ capability: capability ?? null }) },
      }),
    ]);
    expect(await dispatcher.handle({ method: 'POST', path: 'x' })).toEqual({
      status: 200,
      body: { data: { capability: null } },
    });
    expect(existence).not.toHaveBeenCalled();
    expect(await dispatcher.handle({ method: 'POST', path: 'x', authorize: () => true })).toEqual({
      status: 200,
      body: { data: { capability: 'update' } },
    });
    expect(existence).toHaveBeenCalledTimes(1);
  });

  it('skips authorize on unauthenticated routes', async () => {
    const { dispatcher } = makeDispatcher();
    const authorize = vi.fn(() => false);
    const response = await dispatcher.handle({ method: 'POST', path: 'open', authorize });
    expect(response).toEqual({ status: 200, body: { data: { capability: null } } });
    expect(authorize).not.toHaveBeenCalled();
  });

  it('maps typed errors to their status and hides the text of untyped ones', async () => {
    const seen: unknown[] = [];
    const { dispatcher } = makeDispatcher((error) => seen.push(error));
    expect(await dispatcher.handle({ method: 'GET', path: 'items/none' })).toEqual({
      status: 404,
      body: { errors: ['not found'] },
    });
    expect(await dispatcher.handle({ method: 'GET', path: 'bad' })).toEqual({
      status: 400,
      body: { errors: ['named problem'] },
    });
    expect(await dispatcher.handle({ method: 'GET', path: 'cloud' })).toEqual({
      status: 502,
      body: { errors: ['cloud down'] },
    });
    const boom = await dispatcher.handle({ method: 'GET', path: 'boom' });
    expect(boom).toEqual({ status: 500, body: { errors: ['internal error'] } });
    expect(JSON.stringify(boom)).not.toContain('secret');
    expect(seen).toHaveLength(2);
  });

  it('answers 404 for an unknown path and 405 for an unsupported method', async () => {
    const { dispatcher } = makeDispatcher();
    expect((await dispatcher.handle({ method: 'GET', path: 'nowhere' })).status).toBe(404);
    expect((await dispatcher.handle({ method: 'LIST', path: '' })).status).toBe(404);
    expect((await dispatcher.handle({ method: 'DELETE', path: 'open' })).status).toBe(405);
    expect((await dispatcher.handle({ method: 'TRACE' as never, path: 'open' })).status).toBe(405);
  });

  it('checks the PATCH media type (415), ignoring parameters', async () => {
    const { dispatcher } = makeDispatcher();
    const patch = (headers?: Record<string, string>) =>
      dispatcher.handle({ method: 'PATCH', path: 'items/k', body: { value: 'v' }, headers });
    expect((await patch()).status).toBe(415);
    expect((await patch({ 'content-type': 'application/json' })).body).toEqual({
      errors: ['PATCH requires Content-Type of application/merge-patch+json, provided application/json'],
    });
    expect((await patch({ 'CONTENT-TYPE': 'application/merge-patch+json; charset=utf-8' })).status).toBe(204);
  });

  it('answers 400 naming the field for bad input, never 500', async () => {
    const { dispatcher } = makeDispatcher();
    const badVersion = await dispatcher.handle({ method: 'GET', path: 'items/k', query: { version: 'two' } });
    expect(badVersion).toEqual({
      status: 400,
      body: { errors: ['invalid value for field "version": expected an integer, got "two"'] },
    });
    const missing = await dispatcher.handle({
      method: 'PATCH',
      path: 'items/k',
      body: {},
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(missing).toEqual({ status: 400, body: { errors: ['missing required field "value"'] } });
    for (const body of ['text', [1, 2], 42]) {
      expect(await dispatcher.handle({ method: 'POST', path: 'items/k', body })).toEqual({
        status: 400,
        body: { errors: ['the request body must be a JSON object'] },
      });
    }
  });

  it('refuses traversal and empty segments before any handler or existence check runs', async () => {
    const { dispatcher, store } = makeDispatcher();
    const authorize = vi.fn(() => true);
    for (const path of [
      'items/../x',
      'items/./x',
      'items//x',
      '/items/x',
      'items/a/..',
      'items/\u0000',
      `items/${'a'.repeat(5000)}`,
    ]) {
      const response = await dispatcher.handle({ method: 'POST', path, body: { value: 'v' }, authorize });
      expect(response.status, path).toBe(400);
      expect((response.body as { errors: string[] }).errors[0], path).toMatch(/^invalid path/);
    }
    expect(authorize).not.toHaveBeenCalled();
    expect(store.size).toBe(0);
  });

  it('treats names that merely contain dots as ordinary', async () => {
    const { dispatcher } = makeDispatcher();
    for (const path of ['items/v1.2', 'items/a..b', 'items/.hidden']) {
      expect((await dispatcher.handle({ method: 'POST', path, body: { value: 'v' } })).status, path).toBe(204);
    }
  });

  it('does not let __proto__ in the input reach the prototype', async () => {
    const { dispatcher } = makeDispatcher();
    const body = JSON.parse('{"value":"v","__proto__":{"polluted":true}}');
    // An ignored field, with Vault's warning naming it.
    expect((await dispatcher.handle({ method: 'POST', path: 'items/p', body })).status).toBe(200);
    const query = JSON.parse('{"__proto__":{"polluted":true}}');
    expect((await dispatcher.handle({ method: 'GET', path: 'items/p', query })).status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('routes literal paths as the table order says: an earlier pattern that also matches wins, params and all', async () => {
    const seen: string[] = [];
    const dispatcher = new Dispatcher([
      route({ pattern: 'shadow/:name', operations: { read: async ({ params }) => ok({ by: 'param', params }) } }),
      route({ pattern: 'shadow/fixed', operations: { read: async () => ok({ by: 'literal' }) } }),
      route({
        pattern: /^plain$/,
        operations: { read: async ({ params }) => (seen.push(JSON.stringify(params)), ok({ by: 'plain' })) },
      }),
      route({ pattern: 'folder/', operations: { list: async ({ path }) => ok({ path }) } }),
    ]);
    const shadowed = { status: 200, body: { data: { by: 'param', params: { name: 'fixed' } } } };
    const first = await dispatcher.handle({ method: 'GET', path: 'shadow/fixed' });
    expect(first).toEqual(shadowed);
    // Each request gets params of its own, as from a fresh match: changing one request's leaves the next one's alone.
    (first.body as { data: { params: Record<string, string> } }).data.params.name = 'changed';
    expect(await dispatcher.handle({ method: 'GET', path: 'shadow/fixed' })).toEqual(shadowed);
    expect(await dispatcher.handle({ method: 'GET', path: 'plain' })).toEqual({
      status: 200,
      body: { data: { by: 'plain' } },
    });
    expect(seen).toEqual(['{}']);
    // A LIST gains its '/' before routing, with or without the table.
    expect(await dispatcher.handle({ method: 'LIST', path: 'folder' })).toEqual({
      status: 200,
      body: { data: { path: 'folder/' } },
    });
    expect(await dispatcher.handle({ method: 'LIST', path: 'folder/' })).toEqual({
      status: 200,
      body: { data: { path: 'folder/' } },
    });
    // Paths the table does not hold still get every path check.
    expect((await dispatcher.handle({ method: 'GET', path: 'shadow/../plain' })).status).toBe(400);
    expect((await dispatcher.handle({ method: 'GET', path: 'plain/' })).status).toBe(404);
  });
});
