import { isPlainObject } from '../../core/framework/fields.js';

/**
 * The structure of a secret without its values: every leaf becomes null. A leaf is anything but a non-empty object
 * (scalars, arrays, `{}`), and, when `depth` is non-zero, any member at that nesting level (top-level members are
 * level 1). A negative depth therefore behaves like 1, as in Vault.
 *
 * Iterative: stored data of any depth (including data written before depth was bounded) cannot overflow the stack.
 */
export function subkeys(data: Record<string, unknown>, depth: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const pending: { source: Record<string, unknown>; target: Record<string, unknown>; level: number }[] = [
    { source: data, target: root, level: 1 },
  ];
  while (pending.length > 0) {
    const { source, target, level } = pending.pop() as (typeof pending)[number];
    for (const [name, value] of Object.entries(source)) {
      const descend = isPlainObject(value) && Object.keys(value).length > 0 && (depth === 0 || level + 1 <= depth);
      const child = descend ? {} : null;
      Object.defineProperty(target, name, { value: child, enumerable: true, writable: true, configurable: true });
      if (descend) pending.push({ source: value, target: child as Record<string, unknown>, level: level + 1 });
    }
  }
  return root;
}
