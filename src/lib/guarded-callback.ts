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
