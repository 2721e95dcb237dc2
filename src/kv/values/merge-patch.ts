import { isPlainObject } from '../../core/framework/fields.js';

/**
 * RFC 7396 JSON Merge Patch. An object patch merges member by member: null removes the member, an object merges
 * recursively (into an empty object when the target member is absent or not an object, which also drops the nested
 * nulls), anything else (arrays included) replaces the member. A patch that is not an object replaces the target.
 *
 * Neither input is modified. Results are built with Object.fromEntries, which defines own properties, so member names
 * such as "__proto__" or "constructor" are ordinary data and never reach a prototype.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const merged = new Map<string, unknown>(isPlainObject(target) ? Object.entries(target) : []);
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) merged.delete(name);
    else merged.set(name, mergePatch(merged.get(name), value));
  }
  return Object.fromEntries(merged);
}
