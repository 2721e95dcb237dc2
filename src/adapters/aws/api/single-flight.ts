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

/** Concurrent callers of one key share one run; the next caller after it settles starts a new one. */
export function singleFlight<T>(running: Map<string, Promise<T>>, key: string, run: () => Promise<T>): Promise<T> {
  const existing = running.get(key);
  if (existing) return existing;
  const started = run().finally(() => running.delete(key));
  running.set(key, started);
  return started;
}
