/**
 * The order of storage keys and listed names: code point order, which is the byte order of their UTF-8 form and what
 * SQLite's BINARY and PostgreSQL's "C" collations give. JavaScript's default sort compares UTF-16 code units, which
 * differs for characters above U+FFFF.
 */
export function compareKeys(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const x = a.codePointAt(index) as number;
    const y = b.codePointAt(index) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) index++;
  }
  return a.length - b.length;
}
