// What one server lets its clients hold: connections, request bodies and the time they take. Without a token a client
// can still open connections and send requests (a login has to), so these bounds are what keeps anonymous traffic from
// taking the server's memory.

export interface TransportLimitOptions {
  /** Larger bodies get 413; 1 MiB by default. It also bounds what a KV patch may grow a value to (`maxValueBytes`). */
  maxBodyBytes?: number;
  /** Connections open at once; one more is answered 503 and closed. 1024 by default. */
  maxConnections?: number;
  /** Time allowed for a request's head, then for the whole request; 10 s and 60 s by default. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
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
  return {
    maxBodyBytes,
    maxConnections: positive('maxConnections', options.maxConnections, 1024),
    headersTimeoutMs: positive('headersTimeoutMs', options.headersTimeoutMs, 10_000),
    requestTimeoutMs: positive('requestTimeoutMs', options.requestTimeoutMs, 60_000),
  };
}
