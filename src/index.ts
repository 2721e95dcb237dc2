/**
 * strongroom: a cloud identity auth method and a versioned key-value secrets engine for Node services.
 *
 * @packageDocumentation
 */
export type {
  Storage,
  StorageOperation,
  ListPageOptions,
  StorageWatch,
  StorageWatchHandlers,
} from './ports/storage.js';
export type { StorageCopy, StorageEntry } from './ports/storage-copy.js';
export type { Clock } from './ports/clock.js';
export type { RootKeyProvider } from './ports/root-key.js';
export type * from './ports/cloud.js';
export type {
  Capability,
  CapabilityCheck,
  EngineRequest,
  EngineResponse,
  ResponseBody,
  SuccessBody,
  ErrorBody,
  AuthGrant,
  HttpMethod,
  BulkAuthorizer,
  RequestActor,
} from './core/framework/request.js';
export {
  isOk,
  isGrant,
  errorsOf,
  type SuccessStatus,
  type SuccessResponse,
  type GrantResponse,
} from './core/framework/results.js';
export {
  StrongroomError,
  InvalidRequest,
  PermissionDenied,
  AuthenticationRefused,
  NotFound,
  UnsupportedOperation,
  PayloadTooLarge,
  UnsupportedMediaType,
  InternalError,
  CloudUnavailable,
  QuotaExceeded,
  SealedValueInvalid,
  UnknownKeyTerm,
  WrongRootKey,
  StorageNotEmpty,
  RootKeyUnavailable,
  StorageUnavailable,
  isStrongroomError,
} from './lib/errors.js';
export { compareKeys } from './lib/key-order.js';
export { MemoryStorage } from './adapters/storage/memory/memory-storage.js';
export { systemClock, ManualClock } from './lib/clocks.js';
export * from './encryption/index.js';
export * from './kv/index.js';
export * from './auth/index.js';
export * from './acl/index.js';
export { AuthMethod, type AuthMethodOptions, type LoginBody } from './adapters/aws/auth-method.js';
