// Wrapped answers, as Vault keeps them in a wrapping token's cubbyhole: each is stored whole in the configured storage
// (encrypted at rest where the storage is an EncryptedStorage, as under `strongroom server`) under the keyed hash of a
// single-use token that holds only the `response-wrapping` policy. Unwrapping spends the token's one use, which the
// token store counts with a conditional write, so that of two processes unwrapping at once exactly one gets the
// answer; the answer is then removed. Expiry ends the token and the periodic sweep removes the answer.
import { InvalidRequest } from '../../lib/errors.js';
import { formatTimestamp } from '../../lib/time.js';
import type { JsonStore } from '../../core/store/stored-json.js';
import type { Clock } from '../../ports/clock.js';
import { envelope, type ApiResult } from '../http/wire.js';
import type { TokenRecord } from '../tokens/token-record.js';
import { RESPONSE_WRAPPING_POLICY } from '../tokens/token-policies.js';
import type { TokenStore } from '../tokens/token-store.js';

const PREFIX = 'sys/wrapping/response/';

/** Vault's answer to a wrapping token that is spent, expired, unknown, or not a wrapping token at all. */
export class InvalidWrappingToken extends InvalidRequest {
  constructor() {
    super('wrapping token is not valid or does not exist');
  }
}

/** The `wrap_info` of a wrapped answer. */
export interface WrapInfo {
  token: string;
  accessor: string;
  ttl: number;
  creation_time: string;
  creation_path: string;
  /** The accessor of the token the wrapped answer holds, when it holds one (a login, a token creation). */
  wrapped_accessor?: string;
}

interface StoredAnswer {
  /** The whole answer as the caller would have had it: the Vault envelope. */
  response: unknown;
  creation_ttl: number;
  creation_time: string;
  creation_path: string;
  /** Epoch milliseconds. */
  expires_at: number;
}

export interface WrapOptions {
  ttl: number;
  /** The path whose answer it is, shown by a lookup. */
  path: string;
  /** The caller, if any: the wrapping token counts in its quota and takes its display name. */
  creator?: TokenRecord | undefined;
  wrappedAccessor?: string | undefined;
}

const isWrappingToken = (record: TokenRecord | undefined): record is TokenRecord =>
  record?.policies.length === 1 && record.policies[0] === RESPONSE_WRAPPING_POLICY;

export class WrappedResponses {
  constructor(
    private readonly store: JsonStore,
    private readonly tokens: TokenStore,
    private readonly clock: Clock,
  ) {}

  /** Stores `response` behind a new wrapping token; answers its `wrap_info`. */
  async wrap(response: unknown, { ttl, path, creator, wrappedAccessor }: WrapOptions): Promise<WrapInfo> {
    const { token, record } = await this.tokens.mint(
      {
        policies: [RESPONSE_WRAPPING_POLICY],
        meta: null,
        displayName: creator?.displayName ?? '',
        path,
        ttl,
        explicitMaxTtl: ttl,
        period: 0,
        numUses: 1,
        renewable: false,
        boundCidrs: [],
      },
      ttl,
      creator ? { creator, child: false } : undefined,
    );
    const creationTime = formatTimestamp(record.issuedAt);
    const stored: StoredAnswer = {
      response,
      creation_ttl: ttl,
      creation_time: creationTime,
      creation_path: path,
      expires_at: record.expiresAt,
    };
    try {
      await this.store.put(PREFIX + record.id, stored);
    } catch (error) {
      // A token whose answer was never stored would only ever answer "not valid": it goes at once.
      await this.tokens.revoke(record).catch(() => undefined);
      throw error;
    }
    return {
      token,
      accessor: record.accessor,
      ttl,
      creation_time: creationTime,
      creation_path: path,
      ...(wrappedAccessor !== undefined ? { wrapped_accessor: wrappedAccessor } : {}),
    };
  }

  /**
   * A successful answer (the caller's to judge) wrapped: an envelope with only `wrap_info` and any warnings. An answer
   * that is a wrapper already (a rewrap's) is answered as it is.
   */
  async wrapAnswer(requestId: string, result: ApiResult, options: WrapOptions): Promise<ApiResult> {
    const body = (result.body ?? {}) as Record<string, unknown>;
    if ((body.wrap_info ?? null) !== null) return result;
    const auth = body.auth as { accessor?: unknown } | null | undefined;
    const wrappedAccessor = typeof auth?.accessor === 'string' ? auth.accessor : undefined;
    const wrapInfo = await this.wrap(body, { ...options, wrappedAccessor });
    const warnings = Array.isArray(body.warnings) ? (body.warnings as string[]) : undefined;
    return { status: 200, body: { ...envelope(requestId, { warnings }), wrap_info: wrapInfo } };
  }

  async #stored(record: TokenRecord): Promise<StoredAnswer> {
    const stored = await this.store.get<StoredAnswer>(PREFIX + record.id);
    if (!stored || stored.expires_at <= this.clock.now().getTime()) throw new InvalidWrappingToken();
    return stored;
  }

  /** Spends the wrapping token and answers what it held, once; every later call answers InvalidWrappingToken. */
  async unwrap(token: string, remoteAddress: string | undefined): Promise<StoredAnswer> {
    if (!isWrappingToken(await this.tokens.find(token))) throw new InvalidWrappingToken();
    const spent = await this.tokens.use(token, remoteAddress, { wrapping: true });
    if (!isWrappingToken(spent)) throw new InvalidWrappingToken();
    const stored = await this.#stored(spent);
    // The token is spent, so nobody can read the answer again: a failed removal is left to the sweep, and the answer
    // still goes to the one caller who may have it.
    await this.store.delete(PREFIX + spent.id).catch(() => undefined);
    return stored;
  }

  /** What a lookup shows: when and where the answer was wrapped and for how long; never the answer. */
  async lookup(token: string): Promise<Pick<StoredAnswer, 'creation_ttl' | 'creation_time' | 'creation_path'>> {
    const record = await this.tokens.find(token);
    if (!isWrappingToken(record)) throw new InvalidWrappingToken();
    const { creation_ttl, creation_time, creation_path } = await this.#stored(record);
    return { creation_ttl, creation_time, creation_path };
  }

  /** The same answer behind a new wrapping token with the original TTL and path; the old token is spent. */
  async rewrap(token: string, remoteAddress: string | undefined, creator: TokenRecord | undefined): Promise<WrapInfo> {
    const stored = await this.unwrap(token, remoteAddress);
    const auth = (stored.response as { auth?: { accessor?: unknown } | null }).auth;
    return this.wrap(stored.response, {
      ttl: stored.creation_ttl,
      path: stored.creation_path,
      creator,
      wrappedAccessor: typeof auth?.accessor === 'string' ? auth.accessor : undefined,
    });
  }

  /** Removes the answers whose time is up (their tokens expire with them); answers how many. */
  async sweep(): Promise<number> {
    const now = this.clock.now().getTime();
    let removed = 0;
    for (const id of await this.store.list(PREFIX)) {
      const stored = await this.store.get<StoredAnswer>(PREFIX + id).catch(() => undefined);
      if (stored && stored.expires_at <= now) {
        await this.store.delete(PREFIX + id);
        removed += 1;
      }
    }
    return removed;
  }
}
