import { isPlainObject } from '../core/fields.js';

/**
 * The structure of a secret without its values: every leaf becomes null. A leaf is anything but a non-empty object
 * (scalars, arrays, `{}`), and, when `depth` is non-zero, any member at that nesting level (top-level members are
 * level 1). A negative depth therefore behaves like 1, as in the reference.
 */
export function subkeys(data: Record<string, unknown>, depth: number, level = 1): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(data).map(([name, value]) => {
      const descend = isPlainObject(value) && Object.keys(value).length > 0 && (depth === 0 || level + 1 <= depth);
      return [name, descend ? subkeys(value, depth, level + 1) : null];
    }),
  );
}
