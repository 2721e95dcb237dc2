import { InvalidRequest } from '../lib/errors.js';
import type { EngineRequest, EngineResponse } from '../core/framework/request.js';
import {
  notFound,
  notFoundEmpty,
  notFoundWithData,
  noContent,
  ok,
  okOrNoContent,
  listResponse,
} from '../core/framework/response.js';
import { mediaTypeOf } from '../core/framework/router.js';
import {
  operation,
  route,
  type ExistenceContext,
  type Operation,
  type Route,
  type RouteContext,
} from '../core/framework/routing-table.js';
import { configView, configWriteFields } from './rules/config.js';
import type { ConfigStore } from './store/config-store.js';
import {
  dataPatchFields,
  dataReadFields,
  dataWriteFields,
  subkeysFields,
  versionsFields,
  type DataOperations,
  type PatchOutcome,
  type VersionRead,
} from './operations/data-operations.js';
import type { FolderListing } from './operations/folder-listing.js';
import type { KeyStore } from './store/key-store.js';
import { deleteFolder, folderDeleteFields, transferFields } from './operations/key-moves.js';
import { listFields } from './operations/listing.js';
import { restoreFields, type Restore } from './operations/restore.js';
import { metadataPatchFields, metadataWriteFields } from './rules/metadata.js';
import type { MetadataOperations } from './operations/metadata-operations.js';
import { JSON_PATCH, MERGE_PATCH } from './values/patch-formats.js';
import { attributionOf, type Attribution } from './rules/actors.js';
import { readMany, readManyFields } from './operations/read-many.js';

/** The engine's route table: one row per path of docs/kv.md, then Vault's catch-all. */

/** What the routes call: the operations, the config and key stores, and the listings. */
export interface KvRouteTargets {
  data: DataOperations;
  metadata: MetadataOperations;
  config: ConfigStore;
  keys: KeyStore;
  listing: FolderListing;
  restore: Restore;
  /** The engine's own dispatch, which each item of a read-many goes through as the GET it stands for. */
  handle: (request: EngineRequest) => Promise<EngineResponse>;
}

/** A key path: non-empty and not ending in '/' (`data/foo/` is no key; it falls through to the catch-all). */
const KEY = '(?<path>.*[^/])';

const ROOTS = new Set(['data', 'metadata', 'delete', 'undelete', 'destroy']);
const ROOT_WARNING = 'Non-listing operations on the root of a K/V v2 mount are not supported.';
const CLI_VERB: Record<Operation, string> = {
  read: 'get',
  write: 'put',
  patch: 'patch',
  delete: 'delete',
  list: 'list',
  scan: 'scan',
};

/** What Vault answers for paths it has no endpoint for: 404 with a warning, not an error. */
async function invalidPath({ path, operation: op }: RouteContext<unknown>): Promise<EngineResponse> {
  const warning =
    op !== 'list' && ROOTS.has(path)
      ? ROOT_WARNING
      : `Invalid path for a versioned K/V secrets engine. See the API docs for the appropriate API endpoints to use. If using the Vault CLI, use 'vault kv ${CLI_VERB[op]}' for this operation.`;
  return notFoundWithData(null, [warning]);
}

/** Non-list requests on a metadata folder: the root names no key; a deeper folder is no key either. */
async function metadataFolder(context: RouteContext<unknown>): Promise<EngineResponse> {
  if (context.params.path === '') throw new InvalidRequest('missing path');
  return invalidPath(context);
}

function keyOf(params: Readonly<Record<string, string>>): string {
  return params.path ?? '';
}

/** 404 without data for a missing version; 404 with its metadata for a deleted or destroyed one. */
function versionResponse<T>(read: VersionRead<T>, field: 'data' | 'subkeys'): EngineResponse {
  if (read.state === 'missing') return notFound();
  if (read.state === 'hidden') return notFoundWithData({ [field]: null, metadata: read.metadata });
  return ok({ [field]: read.value, metadata: read.metadata });
}

/** A PATCH of a missing key answers 404 without a body; of a deleted or destroyed head, 404 with flat metadata. */
function patchResponse(outcome: PatchOutcome): EngineResponse {
  if (outcome.state === 'missing') return notFoundEmpty();
  if (outcome.state === 'hidden') return notFoundWithData(outcome.metadata);
  return ok(outcome.metadata, outcome.warnings);
}

/** The route table of one engine, over its operations. */
export function kvRoutes({ data, metadata, config, keys, listing, restore, handle }: KvRouteTargets): Route[] {
  const names = (recursive: boolean) =>
    operation(listFields, async ({ params, fields, request }) =>
      listResponse(await listing.names(request, keyOf(params), fields, recursive)),
    );
  const detailed = (recursive: boolean) =>
    operation(listFields, async ({ params, fields, request }) => {
      const found = await listing.detailed(request, keyOf(params), fields, recursive);
      return found.keys.length === 0 ? notFound() : ok(found);
    });
  // POST/PUT need `create` for a key without metadata and `update` otherwise.
  const exists = ({ params }: ExistenceContext) => keys.exists(keyOf(params));
  const versionsRoute = (
    name: string,
    summary: string,
    change: (path: string, versions: number[] | undefined, by: Attribution | undefined) => Promise<string[]>,
  ) =>
    route({
      pattern: new RegExp(`^${name}/${KEY}$`),
      summary,
      fields: versionsFields,
      operations: {
        write: async ({ params, fields, request }) =>
          okOrNoContent(await change(keyOf(params), fields.versions, await attributionOf(request))),
      },
    });

  return [
    route({
      pattern: 'config',
      summary: "The engine's settings, which every key follows unless its own metadata overrides them.",
      operations: {
        read: async () => ok(configView(await config.read())),
        write: operation(configWriteFields, async ({ fields }) => {
          await config.write(fields);
          return noContent();
        }),
      },
    }),
    route({
      pattern: new RegExp(`^data/${KEY}$`),
      summary:
        'The versions of a key: read one, write a new one, patch the current one, or soft-delete the current one.',
      exists,
      operations: {
        read: operation(dataReadFields, async ({ params, fields }) =>
          versionResponse(await data.read(keyOf(params), fields.version, (value) => value, fields.as_of), 'data'),
        ),
        write: operation(dataWriteFields, async ({ params, fields, request }) => {
          const written = await data.write(keyOf(params), fields, await attributionOf(request));
          return ok(written.metadata, written.warnings);
        }),
        patch: operation(
          dataPatchFields,
          async ({ params, fields, request }) => {
            const by = await attributionOf(request);
            return patchResponse(await data.patch(keyOf(params), fields, mediaTypeOf(request) ?? MERGE_PATCH, by));
          },
          // JSON Patch's `test` and `remove` answer differently for right and wrong guesses of values and field
          // names: it needs `read` as well. A merge patch reveals nothing, so `patch` alone suffices, as in Vault.
          {
            mediaTypes: [MERGE_PATCH, JSON_PATCH],
            alsoRequires: (request) => (mediaTypeOf(request) === JSON_PATCH ? ['read'] : []),
          },
        ),
        delete: async ({ params, request }) =>
          okOrNoContent(await data.deleteLatest(keyOf(params), await attributionOf(request))),
      },
    }),
    route({
      pattern: new RegExp(`^metadata/${KEY}$`),
      summary: 'The metadata and settings of a key; DELETE removes the key with every version.',
      exists,
      operations: {
        read: async ({ params }) => {
          const found = await metadata.read(keyOf(params));
          return found ? ok(found) : notFound();
        },
        write: operation(metadataWriteFields, async ({ params, fields }) =>
          okOrNoContent(await metadata.write(keyOf(params), fields)),
        ),
        patch: operation(
          metadataPatchFields,
          async ({ params, fields }) => {
            const outcome = await metadata.patch(keyOf(params), fields);
            return outcome.state === 'missing' ? notFoundEmpty() : okOrNoContent(outcome.warnings);
          },
          { mediaTypes: [MERGE_PATCH] },
        ),
        delete: async ({ params }) => {
          await metadata.remove(keyOf(params));
          return noContent();
        },
      },
    }),
    route({
      // A LIST path always ends in '/' (the dispatcher adds it): the folder to list.
      pattern: /^metadata\/(?<path>(?:.*\/)?)$/,
      path: 'metadata/:folder/',
      summary:
        'The keys and sub-folders of a folder (SCAN: every key below it); DELETE with `recursive` removes every key below it.',
      operations: {
        list: names(false),
        scan: names(true),
        read: metadataFolder,
        write: metadataFolder,
        patch: metadataFolder,
        delete: operation(folderDeleteFields, async (context) => {
          if (!context.fields.recursive || context.params.path === '') return metadataFolder(context);
          await deleteFolder(keys, keyOf(context.params), context.request.authorize, (path) => metadata.remove(path));
          return noContent();
        }),
      },
    }),
    route({
      pattern: new RegExp(`^(?<verb>move|copy)/${KEY}$`),
      path: '(move|copy)/:path',
      summary: 'Moves or copies a key, with every version it keeps, to a new key.',
      fields: transferFields,
      operations: {
        write: async ({ params, fields, request }) => {
          await metadata.transfer(keyOf(params), fields, params.verb === 'copy', request.authorize);
          return noContent();
        },
      },
    }),
    route({
      pattern: /^detailed-metadata\/(?<path>(?:.*\/)?)$/,
      path: 'detailed-metadata/:folder/',
      summary: "A listing of a folder (or, with SCAN, of every key below it) with each key's metadata.",
      operations: { list: detailed(false), scan: detailed(true) },
    }),
    versionsRoute(
      'delete',
      'Soft-deletes versions of a key: their data stays, and undelete brings them back.',
      (path, versions, by) => data.deleteVersions(path, versions, by),
    ),
    versionsRoute('undelete', 'Restores soft-deleted versions of a key.', (path, versions, by) =>
      data.undeleteVersions(path, versions, by),
    ),
    versionsRoute('destroy', 'Destroys versions of a key: their data is removed for good.', (path, versions) =>
      data.destroyVersions(path, versions),
    ),
    route({
      pattern: /^restore\/(?<path>.*)$/,
      path: 'restore/:path',
      summary:
        'Brings a key, or every key below a folder (a path ending in `/`), back to its state at a past time (`as_of`).',
      fields: restoreFields,
      operations: {
        write: async ({ params, fields, request }) =>
          ok(await restore.run(keyOf(params), fields, request.authorize, await attributionOf(request))),
      },
    }),
    route({
      pattern: 'read-many',
      summary:
        'Reads many keys in one request: each item answers what `GET data/<path>` answers, and needs `read` there.',
      // No capability on the route itself: each item asks its own, as its GET does (read-many.ts says why).
      unauthenticated: true,
      operations: {
        write: operation(readManyFields, async ({ fields, request }) =>
          ok(await readMany(handle, fields.requests, request.authorize)),
        ),
      },
    }),
    route({
      pattern: new RegExp(`^subkeys/${KEY}$`),
      summary: "The structure of a version's data: every leaf replaced by `null`.",
      operations: {
        read: operation(subkeysFields, async ({ params, fields }) =>
          versionResponse(await data.subkeys(keyOf(params), fields.version, fields.depth), 'subkeys'),
        ),
      },
    }),
    route({
      pattern: /^.*$/,
      path: '*',
      summary: "Any other path: 404 with Vault's warning pointing to the endpoints above.",
      operations: {
        read: invalidPath,
        list: invalidPath,
        scan: invalidPath,
        write: invalidPath,
        patch: invalidPath,
        delete: invalidPath,
      },
    }),
  ];
}
