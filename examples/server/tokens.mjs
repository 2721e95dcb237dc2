// Client tokens. strongroom's AuthMethod answers a login with a grant and issues no token itself: the embedding
// service mints one, enforces its lifetime and use count, and hands the grant back to AuthMethod.renew() on renewal.
// This is that part of the service, with Vault's lifetime rules (token-ttl.mjs).
import { createHash, randomBytes } from 'node:crypto';
import { BlockList, isIPv6 } from 'node:net';
import { InvalidRequest, formatTimestamp, tokenPolicies } from 'strongroom';
import { DEFAULT_MAX_TTL_SECONDS, calculateTtl } from './token-ttl.mjs';

/**
 * @typedef {object} TokenEntry
 * @property {string} key              sha256 of the token: tokens themselves are never kept
 * @property {string} accessor         a non-secret handle, safe to log
 * @property {string[]} policies
 * @property {Record<string, string> | null} metadata
 * @property {string} displayName
 * @property {string} path             the login path that issued it
 * @property {number} issuedAt         epoch milliseconds
 * @property {number} creationTtl      seconds
 * @property {number} expiresAt        epoch milliseconds; 0 = never
 * @property {number} numUses          uses left; 0 = unlimited
 * @property {boolean} renewable
 * @property {number} period           seconds; a periodic token is renewed by `period` with no maximum
 * @property {number} explicitMaxTtl   seconds; a hard limit even for periodic tokens
 * @property {string} type             'service' or 'batch'
 * @property {BlockList | undefined} boundCidrs
 * @property {import('strongroom').AuthGrant | undefined} grant   what AuthMethod.renew() needs
 */

/** @param {string} token */
const digest = (token) => createHash('sha256').update(token).digest('hex');

/** @param {number} bytes */
const randomText = (bytes) => randomBytes(bytes).toString('base64url');

/** A fresh, unguessable client token (256 bits). */
export const newToken = () => `sr.${randomText(32)}`;

/** @param {readonly string[]} cidrs */
function blockListOf(cidrs) {
  if (cidrs.length === 0) return undefined;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address, bits] = cidr.split('/');
    const family = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

/** @param {BlockList} list @param {string | undefined} address */
function isFrom(list, address) {
  return address !== undefined && list.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
}

export class TokenStore {
  /** @type {Map<string, TokenEntry>} */
  #entries = new Map();
  #clock;
  #limits;

  /**
   * @param {{ clock: import('strongroom').Clock, defaultTtl?: number, maxTtl?: number }} options  TTLs in seconds
   */
  constructor({ clock, defaultTtl = DEFAULT_MAX_TTL_SECONDS, maxTtl = DEFAULT_MAX_TTL_SECONDS }) {
    this.#clock = clock;
    this.#limits = { defaultTtl, systemMaxTtl: maxTtl };
  }

  /** Registers the root token: policy `root`, no expiry, no use limit. @param {string} token */
  addRoot(token) {
    this.#store(token, {
      policies: ['root'],
      metadata: null,
      displayName: 'root',
      path: 'auth/token/root',
      issuedAt: this.#now(),
      creationTtl: 0,
      expiresAt: 0,
      numUses: 0,
      renewable: false,
      period: 0,
      explicitMaxTtl: 0,
      type: 'service',
      boundCidrs: undefined,
      grant: undefined,
    });
  }

  /**
   * Mints a token from a login grant (CONTRACT "Login result"): the grant's policies plus `default`, its TTLs capped
   * like Vault caps them, its use count and CIDR binding.
   * @param {import('strongroom').AuthGrant} grant
   * @param {{ path: string, mountName: string }} origin
   */
  issue(grant, { path, mountName }) {
    const policies = tokenPolicies(grant);
    if (policies.includes('root')) throw new InvalidRequest('auth methods cannot create root tokens');
    const issuedAt = this.#now();
    const { ttl, warnings } = calculateTtl(
      { increment: 0, ttl: grant.ttl, period: grant.period, maxTtl: grant.max_ttl, explicitMaxTtl: grant.explicit_max_ttl },
      { issuedAt, now: issuedAt, ...this.#limits },
    );
    const type = grant.token_type === 'batch' ? 'batch' : 'service';
    const token = newToken();
    const entry = this.#store(token, {
      policies,
      metadata: grant.metadata,
      displayName: grant.display_name ? `${mountName}-${grant.display_name}` : mountName,
      path,
      issuedAt,
      creationTtl: ttl,
      expiresAt: issuedAt + ttl * 1000,
      numUses: grant.num_uses > 0 ? grant.num_uses : 0,
      renewable: grant.renewable && type !== 'batch',
      period: grant.period,
      explicitMaxTtl: grant.explicit_max_ttl,
      type,
      boundCidrs: blockListOf(grant.bound_cidrs ?? []),
      grant,
    });
    return { token, entry, warnings };
  }

  /**
   * The entry of a presented token, if it is valid for this caller; counts one use (the last use still succeeds, then
   * the token is gone, as in Vault).
   * @param {string | undefined} token
   * @param {string | undefined} remoteAddress
   * @returns {TokenEntry | undefined}
   */
  use(token, remoteAddress) {
    if (!token) return undefined;
    const entry = this.#entries.get(digest(token));
    if (!entry) return undefined;
    if (this.#expired(entry)) {
      this.#entries.delete(entry.key);
      return undefined;
    }
    if (entry.boundCidrs && !isFrom(entry.boundCidrs, remoteAddress)) return undefined;
    if (entry.numUses > 0) {
      entry.numUses -= 1;
      if (entry.numUses === 0) this.#entries.delete(entry.key);
    }
    return entry;
  }

  /**
   * Extends a token after AuthMethod.renew() accepted its grant; the renewed grant's TTLs apply, as in Vault.
   * @param {TokenEntry} entry
   * @param {import('strongroom').AuthGrant} renewed
   * @param {number} increment  seconds the caller asked for; 0 = the grant's TTL
   */
  extend(entry, renewed, increment) {
    const now = this.#now();
    const { ttl, warnings } = calculateTtl(
      { increment, ttl: renewed.ttl, period: renewed.period, maxTtl: renewed.max_ttl, explicitMaxTtl: entry.explicitMaxTtl },
      { issuedAt: entry.issuedAt, now, ...this.#limits },
    );
    entry.expiresAt = now + ttl * 1000;
    entry.period = renewed.period;
    entry.grant = renewed;
    return warnings;
  }

  /** @param {TokenEntry} entry */
  revoke(entry) {
    this.#entries.delete(entry.key);
  }

  /** Forgets expired tokens; run periodically so that logins do not pile up. */
  sweep() {
    for (const entry of this.#entries.values()) if (this.#expired(entry)) this.#entries.delete(entry.key);
  }

  /** Seconds left; 0 for a token that never expires. @param {TokenEntry} entry */
  ttlOf(entry) {
    return entry.expiresAt === 0 ? 0 : Math.max(0, Math.floor((entry.expiresAt - this.#now()) / 1000));
  }

  /**
   * The `auth` member of a login or renewal answer.
   * @param {TokenEntry} entry
   * @param {string} token
   */
  authView(entry, token) {
    return {
      client_token: token,
      accessor: entry.accessor,
      policies: entry.policies,
      token_policies: entry.policies,
      metadata: entry.metadata,
      lease_duration: this.ttlOf(entry),
      renewable: entry.renewable,
      entity_id: '',
      token_type: entry.type,
      orphan: true,
      mfa_requirement: null,
      num_uses: entry.numUses,
    };
  }

  /**
   * The `data` of auth/token/lookup-self.
   * @param {TokenEntry} entry
   * @param {string} token
   */
  lookupView(entry, token) {
    return {
      accessor: entry.accessor,
      creation_time: Math.floor(entry.issuedAt / 1000),
      creation_ttl: entry.creationTtl,
      display_name: entry.displayName,
      entity_id: '',
      expire_time: entry.expiresAt === 0 ? null : formatTimestamp(entry.expiresAt),
      explicit_max_ttl: entry.explicitMaxTtl,
      id: token,
      issue_time: formatTimestamp(entry.issuedAt),
      meta: entry.metadata,
      num_uses: entry.numUses,
      orphan: true,
      path: entry.path,
      period: entry.period > 0 ? entry.period : undefined,
      policies: entry.policies,
      renewable: entry.renewable,
      ttl: this.ttlOf(entry),
      type: entry.type,
    };
  }

  /** @param {string} token @param {Omit<TokenEntry, 'key' | 'accessor'>} fields */
  #store(token, fields) {
    const entry = { key: digest(token), accessor: randomText(18), ...fields };
    this.#entries.set(entry.key, entry);
    return entry;
  }

  /** @param {TokenEntry} entry */
  #expired(entry) {
    return entry.expiresAt !== 0 && entry.expiresAt <= this.#now();
  }

  #now() {
    return this.#clock.now().getTime();
  }
}
