// The storage the server hands its engines, observed: every call's latency and failures go to the metrics (and its
// outcome to the outage watch), and the answer (or the error) passes through unchanged. Only the members the wrapped storage has are offered, since the
// engines choose their strategy by which optional members exist.
import { promiseOf } from '../../lib/calls.js';
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

/** Told that a storage call begins; answers what to tell when it ends (with its error, if it failed). */
export type CallWatcher = (operation: string) => (error?: unknown) => void;

/** `storage` with `begin` told of each call, and its answer or error passed through unchanged. */
export function observedStorage(storage: Storage, begin: CallWatcher): Storage {
  const observed: Record<string, unknown> = {};
  for (const name of METHODS) {
    if (typeof storage[name] !== 'function') continue;
    const method = (storage[name] as (...args: unknown[]) => Promise<unknown>).bind(storage);
    // `.then` rather than an async function: every storage call passes here (lib/calls.ts).
    observed[name] = (...args: unknown[]) => {
      const ended = begin(name);
      return promiseOf(() => method(...args)).then(
        (answer) => {
          ended();
          return answer;
        },
        (error: unknown) => {
          ended(error);
          throw error;
        },
      );
    };
  }
  if (storage.answersCopies !== undefined) observed.answersCopies = storage.answersCopies;
  return observed as unknown as Storage;
}

/** A watcher that times each call and reports it to `observe`. */
export function timedCalls(observe: StorageObserver): CallWatcher {
  return (operation) => {
    const started = performance.now();
    return (error) => observe(operation, (performance.now() - started) / 1000, error !== undefined);
  };
}

/**
 * Two watchers told of every call as one, so that the storage is wrapped once: each layer of wrapping costs every
 * storage call a promise and a closure, and a KV read makes four calls.
 */
export function bothWatchers(first: CallWatcher, second: CallWatcher): CallWatcher {
  return (operation) => {
    const firstEnded = first(operation);
    const secondEnded = second(operation);
    return (error) => {
      firstEnded(error);
      secondEnded(error);
    };
  };
}
