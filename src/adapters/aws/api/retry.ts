/** The retry policy shared by the Query API client and the login forwarder. */

/** What `max_retries = -1` means, as in the AWS SDKs' standard mode. */
const defaultMaxRetries = 3;
const maxDelayMs = 20_000;

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The first backoff step; each retry doubles it (with full jitter). */
  baseDelayMs: number;
}

export function retriesFrom(configured: number): number {
  return configured < 0 ? defaultMaxRetries : configured;
}

/** Throttling, and server faults other than "not implemented", are worth another try. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501);
}

/** Backoff before retry number `retry` (0-based); a server's Retry-After (seconds) is honoured up to the cap. */
function backoffDelay(policy: RetryPolicy, retry: number, retryAfter?: string | null): number {
  const hinted = retryAfter ? Number(retryAfter) * 1000 : Number.NaN;
  if (Number.isFinite(hinted) && hinted >= 0) return Math.min(hinted, maxDelayMs);
  const ceiling = Math.min(maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.random() * ceiling;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What one try gave: an answer or a failure, and whether another try could do better. */
export type Outcome<T> = { retryable: boolean; retryAfter?: string | null } & ({ value: T } | { error: Error });

/** Tries until an outcome is final or the retries are spent; the last answer is returned, or its failure thrown. */
export async function withRetries<T>(policy: RetryPolicy, attempt: () => Promise<Outcome<T>>): Promise<T> {
  for (let retry = 0; ; retry += 1) {
    const outcome = await attempt();
    if (!outcome.retryable || retry >= policy.maxRetries) {
      if ('error' in outcome) throw outcome.error;
      return outcome.value;
    }
    await sleep(backoffDelay(policy, retry, outcome.retryAfter));
  }
}

/** A short description of a transport failure, without request details (which may carry credentials). */
export function describeTransportError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timed out';
    const cause = (error as { cause?: unknown }).cause;
    const code = (cause as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
