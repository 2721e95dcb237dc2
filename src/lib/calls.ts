// How the code calls functions whose failure must land somewhere defined: a service's callback whose failure must never
// reach the caller (`runGuarded`), and a step that answers a promise, whose throw must become that promise's rejection
// (`promiseOf`).

/**
 * Runs a callback the embedding service supplied (a log hook, an event listener) whose failure must not reach the
 * caller: a throw, or the rejection of the promise an async callback returns, goes to `onFailure` instead. A rejection
 * nobody handles would end the process (Node's default for unhandled rejections), and the work the callback reports on
 * is already done. A failing `onFailure` is dropped: there is nowhere left to report to.
 */
export function runGuarded(callback: () => unknown, onFailure?: (error: unknown) => void): void {
  const fail = (error: unknown) => {
    if (onFailure) runGuarded(() => onFailure(error));
  };
  try {
    const outcome = callback();
    if (typeof (outcome as PromiseLike<unknown> | undefined)?.then === 'function')
      (outcome as PromiseLike<unknown>).then(undefined, fail);
  } catch (error) {
    fail(error);
  }
}

/**
 * Calls `start` and answers its promise, or a rejected one if it throws before making it: what an async function
 * gives its caller, for the hot paths that chain with `.then` instead (a step written as an async function with an
 * await costs two promises, and its caller's await a third when it answers a promise; `.then` costs one).
 */
export function promiseOf<T>(start: () => Promise<T>): Promise<T> {
  try {
    return start();
  } catch (error) {
    return rejected(error);
  }
}

/** A promise rejected with exactly what was thrown, as an async function's would be. */
export async function rejected(error: unknown): Promise<never> {
  throw error;
}
