import { InvalidRequest } from '../../lib/errors.js';

/** The two formats of a data PATCH: their media types on the wire, and the names the typed `patch()` takes. */

/** RFC 7396 JSON Merge Patch: the default of PATCH data/<key>, and the only format PATCH metadata/<key> takes. */
export const MERGE_PATCH = 'application/merge-patch+json';
/** RFC 6902 JSON Patch: operations applied to the current version's data. */
export const JSON_PATCH = 'application/json-patch+json';

/** The media type a typed patch's `format` stands for; a misspelt format is refused, never taken for a merge patch. */
export function patchMediaType(format: unknown): string {
  if (format === undefined || format === 'merge') return MERGE_PATCH;
  if (format === 'json-patch') return JSON_PATCH;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- any other value a JavaScript caller passes shows as String shows it
  const shown = typeof format === 'string' ? JSON.stringify(format) : String(format);
  throw new InvalidRequest(`invalid value for option "format": expected "merge" or "json-patch", got ${shown}`);
}
