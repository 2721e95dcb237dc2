/**
 * Keeps the provider's own calls inside AWS's request rates: one token bucket per account and region (AWS meters
 * per account and region), refilled continuously. A caller that finds the bucket empty waits its turn, in arrival
 * order; when its turn is further away than `maxWaitMs`, it is refused at once with a clear 502 instead of piling up.
 * An AWS throttling answer empties the bucket, so the callers behind it back off too.
 */
import { CloudUnavailable } from '../../../lib/errors.js';

/**
 * The pace of the AWS provider's own lookups, as one token bucket per account and region (IAM: per account and
 * partition): `burst` calls at once, refilled at `perSecond`.
 */
export interface RateLimit {
  /** Steady calls per second. */
  perSecond: number;
  /** Calls allowed at once after a quiet period. */
  burst: number;
  /** The longest a caller waits for its turn before the call fails with 502. */
  maxWaitMs: number;
}

/** AWS's EC2 "non-mutating" bucket is larger; this stays below the smallest common limits. */
export const defaultRateLimit: RateLimit = { perSecond: 10, burst: 50, maxWaitMs: 10_000 };

interface Bucket {
  tokens: number;
  at: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Waits for a call slot of `key` (account and region), or throws CloudUnavailable when the wait is too long. */
  async acquire(key: string, what: string): Promise<void> {
    const bucket = this.refilled(key);
    bucket.tokens -= 1;
    if (bucket.tokens >= 0) return;
    const waitMs = (-bucket.tokens / this.limit.perSecond) * 1000;
    if (waitMs > this.limit.maxWaitMs) {
      bucket.tokens += 1;
      throw new CloudUnavailable(
        `${what}: AWS request rate for ${key} is at its limit (${this.limit.perSecond}/s); the call would wait ` +
          `${(waitMs / 1000).toFixed(1)} s, longer than the ${(this.limit.maxWaitMs / 1000).toFixed(1)} s allowed; try again later`,
      );
    }
    await sleep(waitMs);
  }

  /** AWS said "slow down": nobody else goes before the bucket has refilled a little. */
  throttled(key: string): void {
    const bucket = this.refilled(key);
    bucket.tokens = Math.min(bucket.tokens, 0);
  }

  private refilled(key: string): Bucket {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.burst, at: now };
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.limit.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    return bucket;
  }
}
