/**
 * The fields a request actually supplied: parsed field objects hold `undefined` for absent keys, and an update must
 * change only what was sent. The keys come from a fixed schema, never from the caller.
 */
export function suppliedFields<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
