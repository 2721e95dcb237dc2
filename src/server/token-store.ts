// Client tokens, durable in the configured storage. Only a keyed hash (HMAC-SHA256 under a server key) of each token
// is stored, as the key of its entry; accessors are indexed the same way. A child token is linked under its parent,
// so that revoking the parent revokes the whole tree. Nothing is cached: every process over one storage sees every
// creation, use and revocation at once.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { BlockList, isIP, isIPv6 } from 'node:net';
import { InvalidRequest, QuotaExceeded } from '../core/errors.js';
import type { Clock } from '../ports/clock.js';
import { JsonStore, unchanged } from '../core/stored-json.js';
import { parseTokenRecord, type TokenRecord } from './token-record.js';
import { calculateTtl } from './token-ttl.js';

const ID_PREFIX = 'sys/token/id/';
const ACCESSOR_PREFIX = 'sys/token/accessor/';
const CHILD_PREFIX = 'sys/token/parent/';
const ROOT_MADE = 'sys/token/root-generated';
// The id of the root token the last start made or was given; any other such token is retired.
const ROOT_CURRENT = 'sys/token/root-current';
// A parent chain longer than this is treated as broken rather than walked further.
const MAX_CHAIN = 256;

/** A fresh, unguessable client token (256 bits). */
export const newToken = (): string => `sr.${randomBytes(32).toString('base64url')}`;

export type NewTokenFields = Omit<TokenRecord, 'id' | 'accessor' | 'issuedAt' | 'creationTtl' | 'expiresAt'>;

export interface TokenLimits {
  /** Seconds; for tokens created without a TTL. */
  defaultTtl: number;
  /** Seconds; the ceiling of every token. */
  systemMaxTtl: number;
  /** Live tokens this process lets exist before refusing new ones with 429. */
  maxTokens: number;
}

function inCidrs(cidrs: readonly string[], address: string | undefined): boolean {
  if (cidrs.length === 0) return true;
  if (address === undefined || isIP(address) === 0) return false;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [base, bits] = cidr.split('/') as [string, string | undefined];
    const family = isIPv6(base) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(base, family);
    else list.addSubnet(base, Number(bits), family);
  }
  return list.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
}

export class TokenStore {
  /** Live tokens as of the last sweep, plus those minted here since: the bound is per process, checked cheaply. */
  #live = 0;
  readonly #revokeListeners = new Set<(id: string) => void>();

  constructor(
    private readonly store: JsonStore,
    private readonly clock: Clock,
    private readonly hashKey: Buffer,
    private readonly limits: TokenLimits,
  ) {}

  #hash(kind: string, value: string): string {
    return createHmac('sha256', this.hashKey).update(`${kind}:${value}`).digest('hex');
  }

  #now(): number {
    return this.clock.now().getTime();
  }

  async #read(id: string): Promise<TokenRecord | undefined> {
    const key = ID_PREFIX + id;
    const stored = await this.store.get<unknown>(key);
    return stored === undefined ? undefined : parseTokenRecord(stored, key);
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

  /** Stores a new token. The indexes go first: a crash leaves at worst an index entry pointing nowhere. */
  async mint(fields: NewTokenFields, ttl: number): Promise<{ token: string; record: TokenRecord }> {
    if (this.#live >= this.limits.maxTokens) {
      throw new QuotaExceeded(`token limit reached: this server keeps at most ${this.limits.maxTokens} live tokens`);
    }
    const token = newToken();
    const issuedAt = this.#now();
    const record: TokenRecord = {
      ...fields,
      id: this.#hash('token', token),
      accessor: randomBytes(18).toString('base64url'),
      issuedAt,
      creationTtl: ttl,
      expiresAt: ttl === 0 ? 0 : issuedAt + ttl * 1000,
    };
    await this.store.put(ACCESSOR_PREFIX + this.#hash('accessor', record.accessor), { id: record.id });
    if (record.parent !== undefined) await this.store.put(`${CHILD_PREFIX}${record.parent}/${record.id}`, {});
    await this.store.put(ID_PREFIX + record.id, record);
    this.#live += 1;
    return { token, record };
  }

  /** The TTL a new token gets, Vault's way, with the warnings of any capping. */
  ttlFor(wanted: { ttl: number; period: number; maxTtl: number; explicitMaxTtl: number }): { ttl: number; warnings: string[] } {
    const now = this.#now();
    return calculateTtl({ increment: 0, ...wanted }, { issuedAt: now, now, defaultTtl: this.limits.defaultTtl, systemMaxTtl: this.limits.systemMaxTtl });
  }

  /**
   * A root token that never expires: `token` when given (stored unless it is already), else a new one the first time
   * any process over this storage starts, answered so that it can be printed once; later starts answer undefined.
   */
  async ensureRoot(token: string | undefined): Promise<string | undefined> {
    const fields = (id: string, accessor: string): TokenRecord => ({
      id,
      accessor,
      policies: ['root'],
      meta: null,
      displayName: 'root',
      path: 'auth/token/root',
      issuedAt: this.#now(),
      creationTtl: 0,
      expiresAt: 0,
      ttl: 0,
      explicitMaxTtl: 0,
      period: 0,
      numUses: 0,
      renewable: false,
      boundCidrs: [],
    });
    if (token !== undefined) {
      const id = this.#hash('token', token);
      const existing = await this.#read(id);
      if (!existing) {
        const record = fields(id, randomBytes(18).toString('base64url'));
        await this.store.put(ACCESSOR_PREFIX + this.#hash('accessor', record.accessor), { id });
        await this.store.put(ID_PREFIX + id, record);
      } else if (existing.retired) {
        // The configuration decides which root token works: a process that starts with a token retired earlier (a
        // rollback, or an old process restarting during a rolling rotation) makes it current again. Otherwise both
        // tokens would end up retired and no root token would work until the next rotation.
        const key = ID_PREFIX + id;
        await this.store.update<unknown>(key, (current) => (current === undefined ? unchanged : { ...parseTokenRecord(current, key), retired: undefined }));
      }
      await this.#retireOtherRoot(id);
      return undefined;
    }
    if ((await this.store.getRaw(ROOT_MADE)) !== undefined) return undefined;
    const made = await this.mint({ ...fields('', ''), parent: undefined }, 0);
    const { written } = await this.store.update(ROOT_MADE, (current) => (current === undefined ? { at: this.#now() } : unchanged));
    if (written) {
      await this.#retireOtherRoot(made.record.id);
      return made.token;
    }
    // Another process made the first root token meanwhile: this one is not needed.
    await this.revoke(made.record);
    return undefined;
  }

  /**
   * Changing the configured root token rotates it: the root token an earlier start made or was given stops working.
   * It is retired rather than revoked, because revoking would end every token it created, the services' included.
   */
  async #retireOtherRoot(id: string): Promise<void> {
    const previous = await this.store.get<{ id?: unknown }>(ROOT_CURRENT);
    if (previous?.id === id) return;
    // The old one first: a crash in between leaves the pointer on it, and the next start retires it again.
    if (typeof previous?.id === 'string') {
      const key = ID_PREFIX + previous.id;
      await this.store.update<unknown>(key, (current) => (current === undefined ? unchanged : { ...parseTokenRecord(current, key), retired: true }));
    }
    await this.store.put(ROOT_CURRENT, { id });
  }

  /** A valid token that still grants something: a retired root token is only kept as its children's parent. */
  async #usable(id: string): Promise<TokenRecord | undefined> {
    const record = await this.#valid(id);
    return record?.retired || record?.usedUp ? undefined : record;
  }

  /** The entry of a valid token, without counting a use (lookups of another token). */
  async find(token: string | undefined): Promise<TokenRecord | undefined> {
    return token ? this.#usable(this.#hash('token', token)) : undefined;
  }

  async findByAccessor(accessor: string): Promise<TokenRecord | undefined> {
    const index = await this.store.get<{ id?: unknown }>(ACCESSOR_PREFIX + this.#hash('accessor', accessor));
    return typeof index?.id === 'string' ? this.#usable(index.id) : undefined;
  }

  /**
   * The entry of a presented token, if it is valid for this caller; counts one use (the last use still succeeds, then
   * the token is revoked, as in Vault). The count is committed atomically when the storage can.
   */
  async use(token: string | undefined, remoteAddress: string | undefined): Promise<TokenRecord | undefined> {
    const record = await this.find(token);
    if (!record || !inCidrs(record.boundCidrs, remoteAddress)) return undefined;
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

  /** Extends a token by `ttl` (or its period), never past its maximum; answers the stored entry and any warnings. */
  async renew(record: TokenRecord, wanted: { increment: number; ttl: number; period: number; maxTtl: number }, changes: Partial<TokenRecord> = {}) {
    if (!record.renewable) throw new InvalidRequest('lease is not renewable');
    const now = this.#now();
    const { ttl, warnings } = calculateTtl(
      { ...wanted, explicitMaxTtl: record.explicitMaxTtl },
      { issuedAt: record.issuedAt, now, defaultTtl: this.limits.defaultTtl, systemMaxTtl: this.limits.systemMaxTtl },
    );
    const key = ID_PREFIX + record.id;
    const { next } = await this.store.update<unknown>(key, (current) =>
      current === undefined ? unchanged : { ...parseTokenRecord(current, key), ...changes, expiresAt: now + ttl * 1000 },
    );
    if (next === undefined) throw new InvalidRequest('token was revoked');
    return { record: parseTokenRecord(next, key), warnings };
  }

  /** Tells `listener` the id of each token a revocation in this process removes (open event streams end with it). */
  onRevoke(listener: (id: string) => void): void {
    this.#revokeListeners.add(listener);
  }

  /**
   * Revokes a token and every token below it. Children go first (depth first), so that a crash midway leaves the
   * parent valid and a second revocation finishes the job, never a live child under a revoked parent.
   */
  async revoke(record: Pick<TokenRecord, 'id' | 'accessor' | 'parent'>): Promise<void> {
    const pending: Array<{ id: string; expanded: boolean }> = [{ id: record.id, expanded: false }];
    while (pending.length > 0) {
      const top = pending[pending.length - 1]!;
      if (!top.expanded) {
        top.expanded = true;
        for (const child of await this.store.list(`${CHILD_PREFIX}${top.id}/`)) {
          if (!child.endsWith('/')) pending.push({ id: child, expanded: false });
        }
        continue;
      }
      pending.pop();
      const stored = top.id === record.id ? record : await this.#read(top.id).catch(() => undefined);
      await this.store.delete(ID_PREFIX + top.id);
      for (const listener of this.#revokeListeners) listener(top.id);
      if (stored) {
        await this.store.delete(ACCESSOR_PREFIX + this.#hash('accessor', stored.accessor));
        if (stored.parent !== undefined) await this.store.delete(`${CHILD_PREFIX}${stored.parent}/${top.id}`);
      }
    }
    this.#live = Math.max(0, this.#live - 1);
  }

  /**
   * Revokes expired tokens (and so their children), and used-up ones whose revocation a crash cut short; recounts the
   * live ones. Answers how many were revoked.
   */
  async sweep(): Promise<number> {
    let live = 0;
    let revoked = 0;
    for (const id of await this.store.list(ID_PREFIX)) {
      const record = await this.#read(id).catch(() => undefined);
      if (record && (this.#expired(record) || record.usedUp)) {
        await this.revoke(record);
        revoked += 1;
      } else if (record) {
        live += 1;
      }
    }
    this.#live = live;
    return revoked;
  }
}
