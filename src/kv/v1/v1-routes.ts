import { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import type { EngineRequest, EngineResponse } from '../../core/framework/request.js';
import { listResponse, noContent, notFound } from '../../core/framework/response.js';
import { object } from '../../core/framework/fields.js';
import { operation, route, type Route } from '../../core/framework/routing-table.js';
import { listKeys, listFields, type NameFilter } from '../operations/listing.js';
import { visibleTo } from '../operations/listing-visibility.js';
import type { KeyPages } from '../store/key-pages.js';
import { checkValue, type ValueLimits } from '../values/value-limits.js';
import { leaseDuration } from './lease.js';
import type { UnversionedKeys } from './unversioned-keys.js';

/**
 * The route table of a KV version 1 engine: every path is a key, or (ending in '/', or the root) a folder to list, as
 * in Vault's passthrough backend. The patterns capture nothing: a write's fields are all the caller's data, so none
 * may be taken for a path parameter.
 */

/** What the routes work on. */
export interface V1RouteTargets {
  keys: UnversionedKeys;
  pages: KeyPages;
  limits: ValueLimits;
  /** Seconds a read answers as `lease_duration` when the data sets no `ttl`. */
  defaultLease: number;
}

/** LIST pages as the version 2 engine's do; version 1 has none of its filters. */
export const pageFields = listFields.pick({ after: true, limit: true });
export type PageFields = z.output<typeof pageFields>;

/** The typed `write`'s input, checked as a request body is. */
export const writeInput = z.object({ data: object({ nullable: false }) });

/** What a write stores: a non-empty object within the limits (400 otherwise, with Vault's message for none). */
export function checkedData(data: Record<string, unknown>, limits: ValueLimits): Record<string, unknown> {
  if (Object.keys(data).length === 0) throw new InvalidRequest('missing data fields');
  checkValue(data, limits);
  return data;
}

/** A page of the folder's names that the caller may see (a name's own `list` check, as KvEngine's listings ask). */
export function listPage(
  pages: KeyPages,
  request: Pick<EngineRequest, 'authorize'>,
  folder: string,
  fields: PageFields,
): Promise<string[]> {
  const filters: NameFilter[] = request.authorize
    ? [visibleTo(request.authorize, folder, { capability: 'list', route: '', detailed: false, readable: false })]
    : [];
  return listKeys(pages, folder, fields, { filters });
}

export function v1Routes({ keys, pages, limits, defaultLease }: V1RouteTargets): Route[] {
  return [
    route({
      pattern: /^.*[^/]$/,
      path: ':path',
      summary: 'A secret: read it, write it whole (any JSON object), or delete it.',
      takesArbitraryInput: true,
      // POST/PUT need `create` for a new key and `update` for an existing one.
      exists: ({ path }) => keys.exists(path),
      operations: {
        read: async ({ path }): Promise<EngineResponse> => {
          const found = await keys.read(path);
          if (!found) return notFound();
          return { status: 200, body: { data: found.data, lease_duration: leaseDuration(found.data, defaultLease) } };
        },
        write: async ({ path, input }) => {
          await keys.write(path, checkedData(input, limits));
          return noContent();
        },
        delete: async ({ path }) => {
          await keys.delete(path);
          return noContent();
        },
      },
    }),
    route({
      // A LIST path always ends in '/' (the dispatcher adds it), or is the root.
      pattern: /^(?:.*\/)?$/,
      path: ':folder/',
      summary:
        'A folder: LIST answers its keys and sub-folders (these end in `/`); no key ends in `/`, so a read is 404, a write 400 and a delete 204.',
      operations: {
        list: operation(pageFields, async ({ path, fields, request }) =>
          listResponse(await listPage(pages, request, path, fields)),
        ),
        read: async () => notFound(),
        write: async ({ path }) => {
          if (path === '') throw new InvalidRequest('missing path');
          throw new InvalidRequest(`invalid key path ${JSON.stringify(path)}: a key does not end in '/'`);
        },
        // Nothing is stored there, and deleting nothing succeeds, as in Vault.
        delete: async () => noContent(),
      },
    }),
  ];
}
