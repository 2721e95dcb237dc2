import { isPlainObject } from '../../core/framework/fields.js';

/**
 * Equality of JSON values as RFC 6902 "test" defines it: objects by their members in any order, arrays element by
 * element, scalars by value. Iterative, so stored data of any depth cannot overflow the stack.
 */
export function jsonEqual(left: unknown, right: unknown): boolean {
  const pairs: [unknown, unknown][] = [[left, right]];
  while (pairs.length > 0) {
    const [a, b] = pairs.pop() as [unknown, unknown];
    if (Array.isArray(a) || Array.isArray(b)) {
      if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
      a.forEach((item, index) => pairs.push([item, b[index]]));
    } else if (isPlainObject(a) || isPlainObject(b)) {
      if (!isPlainObject(a) || !isPlainObject(b)) return false;
      const names = Object.keys(a);
      if (names.length !== Object.keys(b).length) return false;
      for (const name of names) {
        if (!Object.hasOwn(b, name)) return false;
        pairs.push([a[name], b[name]]);
      }
    } else if (a !== b) {
      return false;
    }
  }
  return true;
}
