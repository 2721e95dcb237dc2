import { z } from 'zod';
import type { StoredShapes } from '../core/store/stored-json.js';
import type { StorageLayout } from './storage-layout.js';

/**
 * The shapes of the engine's stored documents (records.ts), checked whenever one is read: a document of the wrong
 * shape (`{}`, `null`, a field of the wrong type) is then a 500 naming its key instead of a TypeError somewhere, or a
 * setting silently read as something else. Fields added by later versions of the format are allowed.
 */

const count = z.number().int().nonnegative();
const time = z.number();

const config = z.object({ max_versions: count, cas_required: z.boolean(), delete_version_after: z.number().int() });

const version = z.object({
  version: count,
  created: time,
  deletion: time.optional(),
  destroyed: z.literal(true).optional(),
  blob: z.string().optional(),
});

/** A version's data: an object. */
export const storedData = z.record(z.string(), z.unknown());
const data = storedData;

const entry = version.extend({ write: z.string(), data: data.optional() });

const metadata = z.object({
  created: time,
  updated: time,
  current_version: count,
  oldest_version: count,
  max_versions: count,
  cas_required: z.boolean(),
  delete_version_after: z.number().int(),
  custom_metadata: z.record(z.string(), z.string()),
  revision: count.optional(),
  spilled: count.optional(),
  documents_from: count.optional(),
  versions: z.array(version),
  garbage: z.array(z.string()).optional(),
  retired: z.array(count).optional(),
});

export function kvStoredShapes(layout: StorageLayout): StoredShapes {
  const { prefix } = layout;
  return (key) => {
    if (!key.startsWith(prefix)) return undefined;
    const rest = key.slice(prefix.length);
    if (rest === 'config') return config;
    if (rest.startsWith('metadata/')) return metadata;
    if (rest.startsWith('entries/')) return entry;
    if (rest.startsWith('versions/')) return data;
    return undefined;
  };
}
