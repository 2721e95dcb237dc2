import {
  AuthenticationRefused,
  CloudUnavailable,
  InternalError,
  InvalidRequest,
  NotFound,
  PermissionDenied,
  isStrongroomError,
  type StrongroomError,
} from '../../lib/errors.js';

type ErrorClass = new (message: string, options?: { cause?: unknown }) => StrongroomError;

// Subclasses (an adapter's own error types) may have other constructors, so the error is rebuilt from its core class.
const CORE_CLASSES: readonly ErrorClass[] = [
  CloudUnavailable,
  InvalidRequest,
  AuthenticationRefused,
  PermissionDenied,
  NotFound,
  InternalError,
];

/**
 * Runs one cloud provider call and names it in any failure. A typed error keeps its status class with `what` prefixed
 * to its message; anything else is an unusable provider answer (502) whose text is not shown, since an untyped error
 * may carry request details.
 */
export async function callCloud<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const Class = isStrongroomError(error) ? CORE_CLASSES.find((candidate) => error instanceof candidate) : undefined;
    if (Class && isStrongroomError(error)) throw new Class(`${what}: ${error.message}`, { cause: error });
    throw new CloudUnavailable(`${what}: the cloud provider call failed`, { cause: error });
  }
}
