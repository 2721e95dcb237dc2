import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidRequest } from '../../src/lib/errors.js';
import { ignoredFieldsWarning } from '../../src/core/framework/field-help.js';
import { int, str } from '../../src/core/framework/fields.js';
import { noContent, notFound, ok } from '../../src/core/framework/response.js';
import { Dispatcher } from '../../src/core/framework/router.js';
import { operation, route, type FieldReader } from '../../src/core/framework/routing-table.js';

const warning = (...names: string[]) => `Endpoint ignored these unrecognized parameters: [${names.join(' ')}]`;

const reader: FieldReader<{ name?: string }> = {
  fields: { name: { type: 'string', description: 'A name.' } },
  read: (input) => (typeof input.name === 'string' ? { name: input.name } : {}),
};

function dispatcher() {
  return new Dispatcher([
    route({
      pattern: 'items/:name',
      fields: z.object({ value: str().optional(), version: int().optional() }),
      operations: {
        read: async ({ fields }) => ok({ version: fields.version ?? 0 }),
        write: async () => noContent(),
        patch: operation(z.object({ extra: str().optional() }), async () => ok({ patched: true }, ['handler warning'])),
        delete: async () => notFound(),
      },
    }),
    route({ pattern: 'folder/', operations: { list: async () => ok({ keys: ['a'] }) } }),
    route({ pattern: 'bad', operations: { write: async () => Promise.reject(new InvalidRequest('refused')) } }),
    route({
      pattern: 'hand',
      fields: reader,
      operations: { write: async ({ fields }) => ok({ name: fields.name ?? null }) },
    }),
    route({
      pattern: 'later',
      operations: {
        write: {
          fields: z.object({ known: str().optional() }),
          handlerReadsFields: true,
          handler: async () => noContent(),
        },
      },
    }),
  ]);
}

describe("Vault's warning for request fields a route does not know", () => {
  it('turns a 204 into a 200 with data null and the warning, names sorted', async () => {
    const response = await dispatcher().handle({
      method: 'POST',
      path: 'items/a',
      body: { value: 'v', zeta: 1, alpha: 2 },
    });
    expect(response).toEqual({ status: 200, body: { data: null, warnings: [warning('alpha', 'zeta')] } });
  });

  it('leaves a request with known fields alone', async () => {
    expect(await dispatcher().handle({ method: 'POST', path: 'items/a', body: { value: 'v', version: 2 } })).toEqual({
      status: 204,
    });
  });

  it('counts the path parameters as known: such a field is replaced (below), never called unrecognized', async () => {
    const response = await dispatcher().handle({ method: 'POST', path: 'items/a', body: { name: 'other' } });
    expect(response.body?.warnings).not.toContain(warning('name'));
    expect(response.body?.warnings).toHaveLength(1);
  });

  it('reads the query of a read, without the list flag of a list', async () => {
    const read = await dispatcher().handle({ method: 'GET', path: 'items/a', query: { version: '3', colour: 'red' } });
    expect(read).toEqual({ status: 200, body: { data: { version: 3 }, warnings: [warning('colour')] } });
    const listed = await dispatcher().handle({ method: 'GET', path: 'folder', query: { list: 'true' } });
    expect(listed).toEqual({ status: 200, body: { data: { keys: ['a'] } } });
    const filtered = await dispatcher().handle({ method: 'LIST', path: 'folder/', query: { after: 'x' } });
    expect(filtered.body?.warnings).toEqual([warning('after')]);
  });

  it("uses the operation's own fields, and puts the handler's warnings first", async () => {
    const response = await dispatcher().handle({ method: 'PATCH', path: 'items/a', body: { extra: 'e', value: 'v' } });
    expect(response).toEqual({
      status: 200,
      body: { data: { patched: true }, warnings: ['handler warning', warning('value')] },
    });
  });

  it('adds nothing to errors and 404s', async () => {
    expect(await dispatcher().handle({ method: 'POST', path: 'bad', body: { stray: 1 } })).toEqual({
      status: 400,
      body: { errors: ['refused'] },
    });
    expect(await dispatcher().handle({ method: 'DELETE', path: 'items/a', query: { stray: '1' } })).toEqual({
      status: 404,
      body: { errors: [] },
    });
  });

  it('knows the fields a FieldReader declares, and those a handler reads itself', async () => {
    expect(await dispatcher().handle({ method: 'POST', path: 'hand', body: { name: 'n', other: 1 } })).toEqual({
      status: 200,
      body: { data: { name: 'n' }, warnings: [warning('other')] },
    });
    expect(await dispatcher().handle({ method: 'POST', path: 'later', body: { known: 'k' } })).toEqual({ status: 204 });
    expect(
      (await dispatcher().handle({ method: 'POST', path: 'later', body: { unknown: 'u' } })).body?.warnings,
    ).toEqual([warning('unknown')]);
  });

  it('is one function for every caller: nothing for a body that is not an object', () => {
    expect(ignoredFieldsWarning({ b: 1, a: 2, ok: 3 }, new Set(['ok']))).toEqual([warning('a', 'b')]);
    expect(ignoredFieldsWarning([1, 2], new Set())).toEqual([]);
    expect(ignoredFieldsWarning(undefined, new Set())).toEqual([]);
  });
});

describe("Vault's warning for request fields named like a path parameter", () => {
  const replaced = (...names: string[]) =>
    `Endpoint replaced the value of these parameters with the values captured from the endpoint's path: [${names.join(' ')}]`;

  it('uses the value the path captured and says the field was replaced', async () => {
    const seen: unknown[] = [];
    const dispatcher = new Dispatcher([
      route({
        pattern: 'roles/:name',
        fields: z.object({ name: str().optional(), ttl: int().optional() }),
        operations: {
          write: async ({ fields, input, params }) => (seen.push({ fields, input, params }), noContent()),
        },
      }),
    ]);
    const response = await dispatcher.handle({ method: 'POST', path: 'roles/web', body: { name: 'db', ttl: 5 } });
    expect(response).toEqual({ status: 200, body: { data: null, warnings: [replaced('name')] } });
    expect(seen).toEqual([
      { fields: { name: 'web', ttl: 5 }, input: { name: 'web', ttl: 5 }, params: { name: 'web' } },
    ]);
  });

  it('puts the ignored-fields warning first, as Vault does, and says nothing when no field collides', async () => {
    const response = await dispatcher().handle({ method: 'POST', path: 'items/a', body: { name: 'b', zeta: 1 } });
    expect(response).toEqual({ status: 200, body: { data: null, warnings: [warning('zeta'), replaced('name')] } });
    expect(await dispatcher().handle({ method: 'POST', path: 'items/a', body: { value: 'v' } })).toEqual({
      status: 204,
    });
  });

  it('warns for a query parameter named like a path parameter on a read', async () => {
    const response = await dispatcher().handle({ method: 'GET', path: 'items/a', query: { name: 'b' } });
    expect(response).toEqual({ status: 200, body: { data: { version: 0 }, warnings: [replaced('name')] } });
  });
});
