import type { z } from 'zod';
import { noContent, notFound, ok } from '../../core/framework/response.js';
import { operation, route, type Route } from '../../core/framework/routing-table.js';
import type { AuthContext } from '../context/auth-context.js';
import type { StoredDocument } from '../context/stored-document.js';
import { pathPattern } from './pattern.js';

type Params = Readonly<Record<string, string>>;

/**
 * A path holding one stored document (config/client, config/sts/:account_id, ...): read shows `view` of it (404 when
 * absent), a write applies the supplied fields to it (create when absent, which the existence check reports), and
 * delete removes it.
 */
export function documentRoute<S extends z.ZodObject, T>(
  context: AuthContext,
  definition: {
    pattern: string;
    summary: string;
    document: (params: Params) => StoredDocument<T>;
    fields: S;
    view: (document: T) => unknown;
    apply: (current: T | undefined, fields: z.output<S>) => T;
  },
): Route {
  const { document, view, apply } = definition;
  return route({
    pattern: pathPattern(definition.pattern),
    summary: definition.summary,
    exists: ({ params }) => context.has(document(params)),
    operations: {
      read: async ({ params }) => {
        const stored = await context.read(document(params));
        return stored === undefined ? notFound() : ok(view(stored));
      },
      write: operation(definition.fields, async ({ params, fields }) => {
        await context.update(document(params), (current) => apply(current, fields));
        return noContent();
      }),
      delete: async ({ params }) => {
        await context.delete(document(params));
        return noContent();
      },
    },
  });
}
