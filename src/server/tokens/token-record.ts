// What the server stores about a client token, checked whenever it is read back, and how it is shown on the wire
// (Vault's `auth` member of a login or renewal, and the `data` of a token lookup).
import { z } from 'zod';
import { InternalError } from '../../lib/errors.js';
import type { AuthGrant } from '../../core/framework/request.js';
import { formatTimestamp } from '../../lib/time.js';

const grantSchema = z.object({
  policies: z.array(z.string()),
  metadata: z.record(z.string(), z.string()),
  alias: z.object({ name: z.string(), metadata: z.record(z.string(), z.string()) }),
  display_name: z.string().optional(),
  ttl: z.number(),
  max_ttl: z.number(),
  period: z.number(),
  explicit_max_ttl: z.number(),
  num_uses: z.number(),
  no_default_policy: z.boolean(),
  token_type: z.string(),
  bound_cidrs: z.array(z.string()),
  renewable: z.boolean(),
  internal_data: z.record(z.string(), z.unknown()),
});

export const tokenRecordSchema = z.object({
  /** Keyed hash of the token: the token itself is never stored. */
  id: z.string(),
  accessor: z.string(),
  /** The parent's id; absent for an orphan. */
  parent: z.string().optional(),
  /** How many ancestors it has (absent: none). */
  depth: z.number().optional(),
  /**
   * The quota scope it is counted in (token-ledger.ts); absent for tokens root created, which are counted nowhere and
   * start a scope of their own for the tokens made below them.
   */
  quota: z.string().optional(),
  policies: z.array(z.string()),
  meta: z.record(z.string(), z.string()).nullable(),
  displayName: z.string(),
  /** The path that issued it: `auth/aws/login`, `auth/token/create`, `auth/token/root`. */
  path: z.string(),
  /** The token role it was made with (auth/token/create/<role>), whose period and maximum apply at each renewal. */
  role: z.string().optional(),
  /** Epoch milliseconds. */
  issuedAt: z.number(),
  creationTtl: z.number(),
  /** Epoch milliseconds; 0 = never. */
  expiresAt: z.number(),
  /** The TTL asked for at creation, which a renewal without an increment grants again (seconds). */
  ttl: z.number(),
  explicitMaxTtl: z.number(),
  period: z.number(),
  /** Uses left; 0 = unlimited. */
  numUses: z.number(),
  renewable: z.boolean(),
  boundCidrs: z.array(z.string()),
  /** What AuthMethod.renew() needs, for tokens minted from a login. */
  grant: grantSchema.optional(),
  /** A root token replaced by another at start: it grants nothing, but the tokens it created live on under it. */
  retired: z.literal(true).optional(),
  /** Set by the write that counted the last use, until the revocation that follows removes the entry. */
  usedUp: z.literal(true).optional(),
  /** Unique per counted use: a write whose answer was lost is then known to be this one's, not another process's. */
  lastUse: z.string().optional(),
});

export type TokenRecord = z.infer<typeof tokenRecordSchema> & { grant?: AuthGrant };

/** What whoever mints a token decides; the store sets the rest (identity, times, place in the tree and the quotas). */
export type NewTokenFields = Omit<
  TokenRecord,
  'id' | 'accessor' | 'issuedAt' | 'creationTtl' | 'expiresAt' | 'parent' | 'depth' | 'quota'
>;

export function parseTokenRecord(value: unknown, key: string): TokenRecord {
  const parsed = tokenRecordSchema.safeParse(value);
  if (!parsed.success) throw new InternalError(`stored token entry ${JSON.stringify(key)} is corrupt`);
  return parsed.data;
}

/** Seconds left, to the nearest second (a token minted a millisecond ago shows its whole TTL); 0 = never expires. */
export function ttlLeft(record: TokenRecord, now: number): number {
  return record.expiresAt === 0 ? 0 : Math.max(0, Math.round((record.expiresAt - now) / 1000));
}

/** The `auth` member of a login, token creation or renewal answer. */
export function authView(record: TokenRecord, token: string, now: number): Record<string, unknown> {
  return {
    client_token: token,
    accessor: record.accessor,
    policies: record.policies,
    token_policies: record.policies,
    metadata: record.meta,
    lease_duration: ttlLeft(record, now),
    renewable: record.renewable,
    entity_id: '',
    token_type: 'service',
    orphan: record.parent === undefined,
    mfa_requirement: null,
    num_uses: record.numUses,
  };
}

/** The `data` of a token lookup; `token` is '' when the lookup went by accessor. */
export function lookupView(record: TokenRecord, token: string, now: number): Record<string, unknown> {
  return {
    accessor: record.accessor,
    creation_time: Math.floor(record.issuedAt / 1000),
    creation_ttl: record.creationTtl,
    display_name: record.displayName,
    entity_id: '',
    expire_time: record.expiresAt === 0 ? null : formatTimestamp(record.expiresAt),
    explicit_max_ttl: record.explicitMaxTtl,
    id: token,
    issue_time: formatTimestamp(record.issuedAt),
    meta: record.meta,
    num_uses: record.numUses,
    orphan: record.parent === undefined,
    path: record.path,
    ...(record.role !== undefined ? { role: record.role } : {}),
    ...(record.period > 0 ? { period: record.period } : {}),
    ...(record.boundCidrs.length > 0 ? { bound_cidrs: record.boundCidrs } : {}),
    policies: record.policies,
    renewable: record.renewable,
    ttl: ttlLeft(record, now),
    type: 'service',
  };
}
