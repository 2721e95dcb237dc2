// Client tokens, durable in the configured storage. Only a keyed hash (HMAC-SHA256 under a server key) of each token
// is stored, as the key of its entry; accessors are indexed the same way. A child token is linked under its parent,
// so that revoking the parent revokes the whole tree. Nothing is cached but the decoding of an entry's bytes: every
// lookup reads storage, so every process over one storage sees every creation, use and revocation at once.
import { randomBytes, randomUUID } from 'node:crypto';
import { InternalError, InvalidRequest, QuotaExceeded } from '../../lib/errors.js';
import { DecodedMemo } from '../../lib/decoded-memo.js';
import { hmacSha256Hex } from '../../lib/hmac-sha256.js';
import { promiseOf } from '../../lib/calls.js';
import { type JsonStore, unchanged } from '../../core/store/stored-json.js';
import type { Clock } from '../../ports/clock.js';
import { inCidrs } from './token-cidrs.js';
import { MAX_ATTEMPTS, TokenLedger, type TokenLimits } from './token-ledger.js';
import { parseTokenRecord, type NewTokenFields, type TokenRecord } from './token-record.js';
import { RESPONSE_WRAPPING_POLICY } from './token-policies.js';
import { RootToken, rootFields } from './token-root.js';
import { calculateTtl } from './token-ttl.js';

const ID_PREFIX = 'sys/token/id/';
const ACCESSOR_PREFIX = 'sys/token/accessor/';
const CHILD_PREFIX = 'sys/token/parent/';
/** The most ancestors a token may have: no child is made deeper, and a longer chain is treated as broken. */
export const MAX_CHAIN = 256;

/** A fresh, unguessable client token (256 bits). */
export const newToken = (): string => `sr.${randomBytes(32).toString('base64url')}`;

/** A token made through the token API: by whom, and whether it is that token's child (else an orphan). */
export interface Creation {
  creator: TokenRecord;
  child: boolean;
}

export class TokenStore {
  /**
   * Live tokens as of the last sweep, plus those minted here since, minus those revoked here: a bound on the whole
   * store, per process and checked cheaply; the quota scopes are the exact bounds.
   */
  #live = 0;
  readonly #ledger: TokenLedger;
  readonly #root: RootToken;
  readonly #revokeListeners = new Set<(id: string) => void>();
  /** The stored form of a token or an accessor: HMAC-SHA256 of `kind:value` under the server's key. */
  readonly #hash: (kind: string, value: string) => string;
  /** Entries kept decoded (the tokens in use at once, roughly): most of a token's uses read the same bytes again. */
  readonly #decoded = new DecodedMemo<TokenRecord>(4096);

  /** Live tokens as this process counts them (see the field); the metrics report it. */
  get liveCount(): number {
    return this.#live;
  }

  constructor(
    private readonly store: JsonStore,
    private readonly clock: Clock,
    hashKey: Buffer,
    private readonly limits: TokenLimits,
  ) {
    for (const name of ['maxTokens', 'maxTokensPerParent', 'maxTokensPerRole'] as const) {
      if (!(Number.isSafeInteger(limits[name]) && limits[name] > 0))
        throw new TypeError(`${name} must be a positive integer, got ${String(limits[name])}`);
    }
    const keyed = hmacSha256Hex(hashKey);
    this.#hash = (kind, value) => keyed(`${kind}:${value}`);
    this.#ledger = new TokenLedger(store, limits, this.#hash);
    this.#root = new RootToken(store, clock, {
      entryOf: (token) => this.#read(this.#hash('token', token)),
      create: (token) => this.#create(token ?? newToken(), rootFields(), 0),
      setRetired: async (id, retired) => {
        const key = ID_PREFIX + id;
        await this.store.update<unknown>(key, (current) =>
          current === undefined ? unchanged : { ...parseTokenRecord(current, key), retired },
        );
      },
      revoke: (record) => this.revoke(record),
    });
  }

  #now(): number {
    return this.clock.now().getTime();
  }

  #read(id: string): Promise<TokenRecord | undefined> {
    const key = ID_PREFIX + id;
    return this.store.getMemoized(key, this.#decoded, (stored) => parseTokenRecord(stored, key));
  }

  #expired(record: TokenRecord): boolean {
    return record.expiresAt !== 0 && record.expiresAt <= this.#now();
  }

  /** A record that is stored, unexpired, and whose every ancestor is too (a parent's expiry ends its children). */
  async #valid(id: string): Promise<TokenRecord | undefined> {
    const record = await this.#read(id);
    if (!record || this.#expired(record)) return undefined;
    let parent = record.parent;
    for (let depth = 0; parent !== undefined; depth++) {
      const ancestor = depth < MAX_CHAIN ? await this.#read(parent) : undefined;
      if (!ancestor || this.#expired(ancestor)) return undefined;
      parent = ancestor.parent;
    }
    return record;
  }

  /**
   * Stores a new token; with `creation`, made by another token (as its child, or an orphan). A child never outlives
   * its parent: its expiry is capped at the parent's.
   */
  mint(fields: NewTokenFields, ttl: number, creation?: Creation): Promise<{ token: string; record: TokenRecord }> {
    return this.#create(newToken(), fields, ttl, creation);
  }

  /**
   * The indexes go before the record, in one atomic commit where the storage has them: a crash leaves at worst an index
   * entry pointing nowhere.
   */
  async #create(
    token: string,
    fields: NewTokenFields,
    ttl: number,
    creation?: Creation,
  ): Promise<{ token: string; record: TokenRecord }> {
    const scope = this.#ledger.scopeOf(fields, creation?.creator);
    if (scope !== undefined && this.#live >= this.limits.maxTokens) {
      throw new QuotaExceeded(`token limit reached: this server keeps at most ${this.limits.maxTokens} live tokens`);
    }
    const parent = creation?.child ? creation.creator : undefined;
    const depth = parent ? (parent.depth ?? 0) + 1 : 0;
    if (depth > MAX_CHAIN)
      throw new InvalidRequest(`token chain too deep: a token may have at most ${MAX_CHAIN} ancestors`);
    const issuedAt = this.#now();
    const asked = ttl === 0 ? 0 : issuedAt + ttl * 1000;
    const limit = parent?.expiresAt ?? 0;
    const expiresAt = limit === 0 ? asked : asked === 0 ? limit : Math.min(asked, limit);
    const record: TokenRecord = {
      ...fields,
      id: this.#hash('token', token),
      accessor: randomBytes(18).toString('base64url'),
      issuedAt,
      creationTtl: expiresAt === asked ? ttl : Math.round((expiresAt - issuedAt) / 1000),
      expiresAt,
      ...(parent ? { parent: parent.id, depth } : {}),
      quota: scope,
    };
    const indexes: Array<readonly [string, unknown]> = [
      [ACCESSOR_PREFIX + this.#hash('accessor', record.accessor), { id: record.id }],
    ];
    if (parent) indexes.push([`${CHILD_PREFIX}${parent.id}/${record.id}`, {}]);
    await this.#ledger.create([...indexes, [ID_PREFIX + record.id, record]], scope);
    this.#live += 1;
    return { token, record };
  }

  /** The TTL a new token gets, Vault's way, with the warnings of any capping. */
  ttlFor(wanted: { ttl: number; period: number; maxTtl: number; explicitMaxTtl: number }): {
    ttl: number;
    warnings: string[];
  } {
    const now = this.#now();
    return calculateTtl(
      { increment: 0, ...wanted },
      { issuedAt: now, now, defaultTtl: this.limits.defaultTtl, systemMaxTtl: this.limits.systemMaxTtl },
    );
  }

  /**
   * A root token that never expires: `token` when given (stored unless it is already), else a new one the first time
   * any process over this storage starts, answered so that it can be printed once; later starts answer undefined.
   */
  ensureRoot(token: string | undefined): Promise<string | undefined> {
    return this.#root.ensure(token);
  }

  /** A valid token that still grants something (a retired root token only parents its children); see decision 107. */
  #usable(id: string): Promise<TokenRecord | undefined> {
    return this.#valid(id).then((record) => (record?.retired || record?.usedUp ? undefined : record));
  }

  /** The entry of a valid token, without counting a use (lookups of another token). */
  find(token: string | undefined): Promise<TokenRecord | undefined> {
    return token ? promiseOf(() => this.#usable(this.#hash('token', token))) : Promise.resolve(undefined);
  }

  async findByAccessor(accessor: string): Promise<TokenRecord | undefined> {
    const index = await this.store.get<{ id?: unknown }>(ACCESSOR_PREFIX + this.#hash('accessor', accessor));
    return typeof index?.id === 'string' ? this.#usable(index.id) : undefined;
  }

  /**
   * The entry of a presented token, if it is valid for this caller; counts one use (the last use still succeeds, then
   * the token is revoked, as in Vault). The count is committed atomically when the storage can. A wrapping token is
   * spent only by its unwrapping (`wrapping`): presented anywhere else it authenticates nothing and keeps its use.
   */
  async use(
    token: string | undefined,
    remoteAddress: string | undefined,
    { wrapping = false } = {},
  ): Promise<TokenRecord | undefined> {
    const record = await this.find(token);
    if (!record || !inCidrs(record.boundCidrs, remoteAddress)) return undefined;
    if (record.policies.includes(RESPONSE_WRAPPING_POLICY) !== wrapping) return undefined;
    if (record.numUses === 0) return record;
    const key = ID_PREFIX + record.id;
    // Only a use this request's own conditional write counted lets it through. The last one marks the entry used up
    // (0 uses left would read as unlimited) until the revocation lands; each write is unique, so a write whose answer
    // was lost is recognised as this request's and not another's.
    const { next, written } = await this.store.update<unknown>(key, (current) => {
      if (current === undefined) return unchanged;
      const stored = parseTokenRecord(current, key);
      if (stored.usedUp || stored.numUses === 0) return unchanged;
      const numUses = stored.numUses - 1;
      return { ...stored, numUses, lastUse: randomUUID(), ...(numUses === 0 ? { usedUp: true } : {}) };
    });
    if (!written || next === undefined) return undefined;
    const used = parseTokenRecord(next, key);
    if (used.usedUp) await this.revoke(used);
    return used;
  }

  /**
   * Extends a token by `ttl` (or its period), never past its maximum; answers the stored entry and any warnings. The
   * caller has checked that it is renewable.
   */
  async renew(
    record: TokenRecord,
    wanted: { increment: number; ttl: number; period: number; maxTtl: number },
    changes: Partial<TokenRecord> = {},
  ) {
    const now = this.#now();
    const { ttl, warnings } = calculateTtl(
      { ...wanted, explicitMaxTtl: record.explicitMaxTtl },
      { issuedAt: record.issuedAt, now, defaultTtl: this.limits.defaultTtl, systemMaxTtl: this.limits.systemMaxTtl },
    );
    const key = ID_PREFIX + record.id;
    const { next } = await this.store.update<unknown>(key, (current) =>
      current === undefined
        ? unchanged
        : { ...parseTokenRecord(current, key), ...changes, expiresAt: now + ttl * 1000 },
    );
    if (next === undefined) throw new InvalidRequest('token was revoked');
    return { record: parseTokenRecord(next, key), warnings };
  }

  /** Tells `listener` the id of each token a revocation in this process removes (open event streams end with it). */
  onRevoke(listener: (id: string) => void): void {
    this.#revokeListeners.add(listener);
  }

  /**
   * Revokes a token and every token below it; answers how many it removed. Children go first (depth first), so that
   * a crash midway leaves the parent valid and a second revocation finishes the job, never a live child under a
   * revoked parent.
   */
  async revoke(record: Pick<TokenRecord, 'id'>): Promise<number> {
    const pending: Array<{ id: string; link: string[]; expanded: boolean }> = [
      { id: record.id, link: [], expanded: false },
    ];
    let removed = 0;
    while (pending.length > 0) {
      const top = pending[pending.length - 1]!;
      if (!top.expanded) {
        top.expanded = true;
        // Child links are leaves named by the child's id: the folder holds no sub-folder.
        for (const child of await this.store.list(`${CHILD_PREFIX}${top.id}/`))
          pending.push({ id: child, link: [`${CHILD_PREFIX}${top.id}/${child}`], expanded: false });
        continue;
      }
      pending.pop();
      if (await this.#remove(top.id, top.link)) removed += 1;
      for (const listener of this.#revokeListeners) listener(top.id);
    }
    this.#live = Math.max(0, this.#live - removed);
    return removed;
  }

  /**
   * Removes one token's record, its indexes and its place in its quota scope; answers whether there was a record.
   * `link` is the child link it was found by, if any: that goes even when the record is gone already.
   */
  async #remove(id: string, link: readonly string[]): Promise<boolean> {
    const key = ID_PREFIX + id;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const raw = await this.store.getRaw(key);
      if (raw === undefined) {
        for (const index of link) await this.store.delete(index);
        return false;
      }
      let record: TokenRecord;
      try {
        record = parseTokenRecord(this.store.decode<unknown>(raw, key), key);
      } catch {
        // A corrupt entry grants nothing and names no index of its own: it goes with the link it was found by.
        for (const index of [key, ...link]) await this.store.delete(index);
        return true;
      }
      const indexes = [ACCESSOR_PREFIX + this.#hash('accessor', record.accessor)];
      if (record.parent !== undefined) indexes.push(`${CHILD_PREFIX}${record.parent}/${id}`);
      if (await this.#ledger.remove(key, raw, indexes, record.quota)) return true;
    }
    throw new InternalError('too many concurrent changes of one token to revoke it');
  }

  /**
   * Revokes every token (and so its children) that `matches`, given all tokens read now; an entry that cannot be read
   * now is kept. Answers how many it removed, and how many tokens it found.
   */
  async revokeWhere(
    matches: (record: TokenRecord, all: ReadonlyMap<string, unknown>) => boolean | Promise<boolean>,
  ): Promise<{ revoked: number; found: number }> {
    const all = new Map<string, TokenRecord | undefined>();
    for (const id of await this.store.list(ID_PREFIX)) all.set(id, await this.#read(id).catch(() => undefined));
    let revoked = 0;
    for (const record of all.values()) if (record && (await matches(record, all))) revoked += await this.revoke(record);
    return { revoked, found: all.size };
  }

  /**
   * Revokes expired tokens, used-up ones whose revocation a crash cut short, and those whose parent is gone (a creation
   * that raced its parent's revocation); recounts the live ones. Answers how many it revoked.
   */
  async sweep(): Promise<number> {
    const { revoked, found } = await this.revokeWhere(
      async (record, all) => this.#expired(record) || record.usedUp || (await this.#parentGone(record, all)),
    );
    this.#live = found - revoked;
    return revoked;
  }

  /** Whether a token's parent is gone; asked again of the storage, whose listing need not be a snapshot. */
  async #parentGone({ parent }: TokenRecord, listed: ReadonlyMap<string, unknown>): Promise<boolean> {
    if (parent === undefined || listed.has(parent)) return false;
    try {
      return (await this.store.getRaw(ID_PREFIX + parent)) === undefined;
    } catch {
      return false;
    }
  }
}
