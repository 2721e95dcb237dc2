// The storage the server hands its engines, timed: every call's latency and failures go to the metrics, and the
// answer (or the error) passes through unchanged. Only the members the wrapped storage has are offered, since the
// engines choose their strategy by which optional members exist.
import type { Storage } from '../../ports/storage.js';

/** Told of each storage call when it ends. */
export type StorageObserver = (operation: string, seconds: number, failed: boolean) => void;

const METHODS = [
  'get',
  'put',
  'delete',
  'list',
  'compareAndPut',
  'compareAndDelete',
  'commit',
  'listPage',
  'watch',
] as const;

/** `storage` with each call timed and reported to `observe`. */
export function meteredStorage(storage: Storage, observe: StorageObserver): Storage {
  const metered: Record<string, unknown> = {};
  for (const name of METHODS) {
    if (typeof storage[name] !== 'function') continue;
    const method = (storage[name] as (...args: unknown[]) => Promise<unknown>).bind(storage);
    metered[name] = async (...args: unknown[]) => {
      const started = performance.now();
      try {
        const answer = await method(...args);
        observe(name, (performance.now() - started) / 1000, false);
        return answer;
      } catch (error) {
        observe(name, (performance.now() - started) / 1000, true);
        throw error;
      }
    };
  }
  if (storage.answersCopies !== undefined) metered.answersCopies = storage.answersCopies;
  return metered as unknown as Storage;
}
