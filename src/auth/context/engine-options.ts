import type { Clock } from '../../ports/clock.js';
import type { CloudProvider } from '../../ports/cloud.js';
import type { Storage } from '../../ports/storage.js';
import type { EngineRequest } from '../../core/framework/request.js';

/**
 * 32 days (768h), the mount maximum TTL Vault takes from the mount's tuning: an embedded engine has no mount
 * to tune.
 */
export const DEFAULT_MOUNT_MAX_TTL = 768 * 3600;

/** Options of `AuthEngine`; `AuthMethodOptions` is the same with `cloud` optional. Refused with a TypeError when invalid. */
export interface AuthEngineOptions {
  /** Where the engine keeps its documents, under `storagePrefix`. */
  storage: Storage;
  /** Defaults to the system clock. */
  clock?: Clock;
  /** The cloud the engine asks about instances, principals and credentials. */
  cloud: CloudProvider;
  /** Where CLOUD_REGION and friends are read; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Every key the engine stores starts with this; default 'auth/'. */
  storagePrefix?: string;
  /** Accept DSA-SHA1 PKCS#7 documents at login; off by default, because SHA-1 signatures can be forged. */
  allowSha1Signatures?: boolean;
  /** Seconds; used wherever Vault uses the mount's max lease TTL. */
  mountMaxTtl?: number;
  /**
   * Called with every server-side fault (a 5xx answer, a failed background tidy), for the service's logs; the request
   * comes without its body and with credential headers redacted.
   */
  onInternalError?: (error: unknown, request: EngineRequest) => void;
}
