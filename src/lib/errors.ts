/**
 * Typed errors, each with a stable `code`. The HTTP status of every error class is decided here and nowhere else.
 */
export abstract class StrongroomError extends Error {
  /** A stable identifier of the error class, such as `ERR_NOT_FOUND`; safe to branch on, unlike the message. */
  abstract readonly code: string;
  /** The HTTP status an engine answers with for this error. */
  abstract readonly status: number;

  /**
   * Whether instances capture a stack trace. A refusal (4xx) answers the caller about its own request: no fault to
   * debug, and capturing a stack costs about 6 µs, a quarter of an RSA-2048 check, which an anonymous flood of bad
   * logins would make the server pay on every request. Faults (5xx) keep their stack for the service's logs.
   */
  static readonly traced: boolean = true;

  constructor(message: string, options?: { cause?: unknown }) {
    const traced = new.target.traced;
    const limit = Error.stackTraceLimit;
    if (!traced) Error.stackTraceLimit = 0;
    super(message, options);
    if (!traced) Error.stackTraceLimit = limit;
    this.name = new.target.name;
  }

  /** What an answer to a client says: the message, unless a class keeps some of it for the logs. */
  get publicMessage(): string {
    return this.message;
  }
}

/** Malformed input or a request the engine refuses as invalid (400). */
export class InvalidRequest extends StrongroomError {
  static override readonly traced = false;
  readonly code = 'ERR_INVALID_REQUEST';
  readonly status = 400;
}

/** The caller lacks the capability the operation needs (403). */
export class PermissionDenied extends StrongroomError {
  static override readonly traced = false;
  readonly code = 'ERR_PERMISSION_DENIED';
  readonly status = 403;
  constructor(message = 'permission denied', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A login or renewal that failed verification: bad signature, unmet constraint, replay (403). */
export class AuthenticationRefused extends StrongroomError {
  static override readonly traced = false;
  readonly code = 'ERR_AUTHENTICATION_REFUSED';
  readonly status = 403;
}

/** The path, or what it names (a key, a version, a role), does not exist (404). */
export class NotFound extends StrongroomError {
  static override readonly traced = false;
  readonly code = 'ERR_NOT_FOUND';
  readonly status = 404;
  constructor(message = 'not found', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A whole-storage load (a restore) met a storage that already holds entries (409); nothing was written. */
export class StorageNotEmpty extends StrongroomError {
  static override readonly traced = false;
  readonly code = 'ERR_STORAGE_NOT_EMPTY';
  readonly status = 409;
}

/** What the request would create is in the way of something that exists, such as a mount path in use (409). */
export class Conflict extends StrongroomError {
  static override readonly traced = false;
  readonly code = 'ERR_CONFLICT';
  readonly status = 409;
}

/** The path exists but does not support the method (405). */
export class UnsupportedOperation extends StrongroomError {
  static override readonly traced = false;
  readonly code = 'ERR_UNSUPPORTED_OPERATION';
  readonly status = 405;
}

/** A body whose size the transport refuses (413); used by HTTP adapters. */
export class PayloadTooLarge extends StrongroomError {
  static override readonly traced = false;
  readonly code = 'ERR_PAYLOAD_TOO_LARGE';
  readonly status = 413;
}

/** A request whose body did not arrive within the time the transport allows (408); used by HTTP adapters. */
export class RequestTimeout extends StrongroomError {
  static override readonly traced = false;
  readonly code = 'ERR_REQUEST_TIMEOUT';
  readonly status = 408;
}

/** The server is at a bound of its own, not the caller's (503): too many connections or request bodies at once. */
export class ServiceUnavailable extends StrongroomError {
  static override readonly traced = false;
  readonly code = 'ERR_SERVICE_UNAVAILABLE';
  readonly status = 503;
}

/** A PATCH whose Content-Type the path does not accept (415). */
export class UnsupportedMediaType extends StrongroomError {
  static override readonly traced = false;
  readonly code = 'ERR_UNSUPPORTED_MEDIA_TYPE';
  readonly status = 415;
}

/** A fault on the server side: a storage failure or a bug (500). Its message never carries the cause's text. */
export class InternalError extends StrongroomError {
  readonly code: string = 'ERR_INTERNAL';
  readonly status = 500;
}

/**
 * A stored value that does not open under encryption at rest: a flipped bit, a truncation, a value copied from another
 * key, or bytes that are not a sealed value at all (500). Never served as data.
 */
export class SealedValueInvalid extends InternalError {
  override readonly code = 'ERR_SEALED_VALUE_INVALID';
}

/** A stored value sealed under a key term the keyring does not hold: retired, or from another keyring (500). */
export class UnknownKeyTerm extends InternalError {
  override readonly code = 'ERR_UNKNOWN_KEY_TERM';
}

/** The root key does not open the stored keyring: it is not the key the keyring was created with (500). */
export class WrongRootKey extends InternalError {
  override readonly code = 'ERR_WRONG_ROOT_KEY';
}

/** The root key provider (a KMS) could not be reached or refused the call for another reason than a wrong key (500). */
export class RootKeyUnavailable extends InternalError {
  override readonly code = 'ERR_ROOT_KEY_UNAVAILABLE';
}

/** The cloud provider is unreachable, erroring, or answering something unparsable (502). */
export class CloudUnavailable extends StrongroomError {
  readonly code = 'ERR_CLOUD_UNAVAILABLE';
  readonly status = 502;
}

/**
 * The storage cannot be reached, or did not answer within its timeouts (503). The operation was not confirmed: it may
 * or may not have taken effect. The answer says only that; `storage` and `reason` say where and why, for logs.
 */
export class StorageUnavailable extends StrongroomError {
  readonly code = 'ERR_STORAGE_UNAVAILABLE';
  readonly status = 503;
  /** The storage as logs name it, such as `host:port/database`: never a user name or password. */
  readonly storage: string;
  /** Why: an error code such as ECONNREFUSED, or the timeout that expired. */
  readonly reason: string;
  constructor(storage: string, reason: string, options?: { cause?: unknown }) {
    super(`storage at ${storage} is unavailable (${reason}); the operation was not confirmed`, options);
    this.storage = storage;
    this.reason = reason;
  }

  /** What a client is told: not where the storage is. */
  override get publicMessage(): string {
    return 'storage unavailable: the operation was not confirmed; try again';
  }
}

/** Whether `error` is one of this package's typed errors (`instanceof`), so its `code` and `status` can be read. */
export function isStrongroomError(error: unknown): error is StrongroomError {
  return error instanceof StrongroomError;
}

/** A configured bound is reached, such as the number of live tokens a server keeps (429). */
export class QuotaExceeded extends StrongroomError {
  static override readonly traced = false;
  readonly code = 'ERR_QUOTA_EXCEEDED';
  readonly status = 429;
}
