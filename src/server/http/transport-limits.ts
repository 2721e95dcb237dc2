// What one server lets its clients hold: connections, request bodies and the time they take. Without a token a client
// can still open connections and send bodies (a login has to), so these bounds are what keeps anonymous traffic from
// taking the server's memory.

export interface TransportLimitOptions {
  /** Larger bodies get 413; 1 MiB by default. It also bounds what a KV patch may grow a value to (`maxValueBytes`). */
  maxBodyBytes?: number;
  /**
   * The body limit of a request without a valid token: a login, or a caller whose token is wrong. A larger body gets
   * 413 before any of it is read; 64 KiB by default (an ec2 or iam login is a few KiB).
   */
  maxUnauthenticatedBodyBytes?: number;
  /** Bytes of request bodies held at once, by all requests together; past it, 503. 32 MiB by default (at least maxBodyBytes). */
  maxInflightBodyBytes?: number;
  /** Connections open at once; one more is answered 503 and closed. 1024 by default. */
  maxConnections?: number;
  /** Time allowed for a request's head, then for the whole request; 10 s and 60 s by default. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Time allowed for a request's body once its head has been read; 10 s by default. */
  bodyTimeoutMs?: number;
}

export type TransportLimits = Required<TransportLimitOptions>;

const MIB = 1024 * 1024;

function positive(name: keyof TransportLimitOptions, value: number | undefined, fallback: number): number {
  const chosen = value ?? fallback;
  const unit = name.endsWith('Bytes') ? ' of bytes' : name.endsWith('Ms') ? ' of milliseconds' : '';
  if (!(typeof chosen === 'number' && chosen > 0)) throw new TypeError(`${name} must be a positive number${unit}`);
  return chosen;
}

/** The limits with their defaults; a value that is not a positive number is refused with a TypeError naming it. */
export function transportLimits(options: TransportLimitOptions): TransportLimits {
  const maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes, MIB);
  const maxInflightBodyBytes = positive(
    'maxInflightBodyBytes',
    options.maxInflightBodyBytes,
    Math.max(32 * MIB, maxBodyBytes),
  );
  // A budget smaller than one body would refuse every body of the largest size allowed.
  if (maxInflightBodyBytes < maxBodyBytes) throw new TypeError('maxInflightBodyBytes must be at least maxBodyBytes');
  return {
    maxBodyBytes,
    maxUnauthenticatedBodyBytes: Math.min(
      positive('maxUnauthenticatedBodyBytes', options.maxUnauthenticatedBodyBytes, 64 * 1024),
      maxBodyBytes,
    ),
    maxInflightBodyBytes,
    maxConnections: positive('maxConnections', options.maxConnections, 1024),
    headersTimeoutMs: positive('headersTimeoutMs', options.headersTimeoutMs, 10_000),
    requestTimeoutMs: positive('requestTimeoutMs', options.requestTimeoutMs, 60_000),
    bodyTimeoutMs: positive('bodyTimeoutMs', options.bodyTimeoutMs, 10_000),
  };
}
