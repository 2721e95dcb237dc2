/**
 * Shares one load among concurrent callers of the same key; a failed load reaches all of them and is forgotten, a
 * stale value is replaced by whoever notices first (the others wait for that one replacement).
 */
export async function cachedLoad<T>(
  cache: Map<string, Promise<T>>,
  key: string,
  isFresh: (value: T) => boolean,
  load: () => Promise<T>,
): Promise<T> {
  for (let existing = cache.get(key); existing !== undefined; existing = cache.get(key)) {
    const value = await existing;
    if (isFresh(value)) return value;
    if (cache.get(key) === existing) {
      cache.delete(key);
      break;
    }
  }
  const loading = load();
  cache.set(key, loading);
  loading.catch(() => {
    if (cache.get(key) === loading) cache.delete(key);
  });
  return loading;
}
