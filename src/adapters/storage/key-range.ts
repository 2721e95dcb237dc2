/**
 * Key arithmetic shared by the SQL adapters. Keys below a prefix form one contiguous range in byte order, and a
 * sub-folder `name/` one contiguous range inside it, which ends just before `name0` ('0' is the byte after '/').
 * Listing a folder therefore seeks from child to child through the primary-key index instead of reading the subtree.
 */
export interface Bound {
  key: string;
  /** Whether `key` itself belongs to the range. */
  inclusive: boolean;
}

/** The first key after every key starting with `prefix` (which ends in '/'); undefined for the root. */
export function prefixEnd(prefix: string): string | undefined {
  return prefix === '' ? undefined : `${prefix.slice(0, -1)}0`;
}

/** The name `list(prefix)` shows for `key`: the leaf, or the first sub-folder with its slash. */
export function childName(prefix: string, key: string): string {
  const rest = key.slice(prefix.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? rest : rest.slice(0, slash + 1);
}

/** Where the keys of the children listed after `name` start. */
export function boundAfterChild(prefix: string, name: string): Bound {
  return name.endsWith('/')
    ? { key: `${prefix}${name.slice(0, -1)}0`, inclusive: true }
    : { key: prefix + name, inclusive: false };
}

/**
 * Where a page strictly after `after` starts. A non-recursive `after` holding a slash lies inside that sub-folder,
 * whose own name sorts before it, so the page starts after the whole sub-folder.
 */
export function pageStart(prefix: string, after: string | undefined, recursive: boolean): Bound {
  if (after === undefined) return { key: prefix, inclusive: true };
  if (recursive) return { key: prefix + after, inclusive: false };
  const slash = after.indexOf('/');
  return boundAfterChild(prefix, slash < 0 ? after : after.slice(0, slash + 1));
}

/** Rejects a commit naming one key twice, which the port forbids and no SQL adapter could apply in a defined order. */
export function assertDistinctKeys(keys: Iterable<string>): void {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) throw new Error(`a commit names the key ${JSON.stringify(key)} twice`);
    seen.add(key);
  }
}

export function checkPageLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`listPage limit must be a positive integer, got ${limit}`);
}
