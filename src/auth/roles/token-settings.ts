import { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import { bool, duration, int, str, stringList } from '../../core/framework/fields.js';
import { parseCidr } from './cidr.js';

const TOKEN_TYPES = ['default', 'service', 'batch'] as const;
const seconds = z.number();
const strings = z.array(z.string());

/** The token parameters of a role as stored (Vault's common token fields); durations in seconds. */
export const storedTokenSettings = z.object({
  ttl: seconds,
  max_ttl: seconds,
  period: seconds,
  explicit_max_ttl: seconds,
  policies: strings,
  bound_cidrs: strings,
  no_default_policy: z.boolean(),
  /** 0 is unlimited. */
  num_uses: z.number().int(),
  type: z.enum(TOKEN_TYPES),
});

export type TokenSettings = z.infer<typeof storedTokenSettings>;
export type TokenType = TokenSettings['type'];

/** The deprecated `ttl`, `max_ttl`, `period` and `policies` as stored, kept only to answer reads as Vault does. */
export const storedLegacyTokenFields = z.object({ ttl: seconds, max_ttl: seconds, period: seconds, policies: strings });

export type LegacyTokenFields = z.infer<typeof storedLegacyTokenFields>;

export const DEFAULT_TOKEN_SETTINGS: Readonly<TokenSettings> = Object.freeze({
  ttl: 0,
  max_ttl: 0,
  period: 0,
  explicit_max_ttl: 0,
  policies: [],
  bound_cidrs: [],
  no_default_policy: false,
  num_uses: 0,
  type: 'default',
});

export const NO_LEGACY_FIELDS: Readonly<LegacyTokenFields> = Object.freeze({
  ttl: 0,
  max_ttl: 0,
  period: 0,
  policies: [],
});

/** The deprecated fields: sent alone they fill their successor; sent with it, it wins; it sent alone clears them. */
function legacy<T extends z.ZodType>(schema: T, successor: string, more = ''): T {
  return schema.meta({ description: `Alias of \`${successor}\`${more}.`, deprecated: true });
}

export const tokenFieldShape = {
  token_ttl: duration().optional().meta({
    description: 'The lifetime of the tokens logins grant, at most `token_max_ttl`; 0: the default lifetime.',
    default: DEFAULT_TOKEN_SETTINGS.ttl,
  }),
  token_max_ttl: duration().optional().meta({
    description:
      'The longest lifetime of the tokens, renewals included; capped at `mountMaxTtl` (above it: a warning).',
    default: DEFAULT_TOKEN_SETTINGS.max_ttl,
  }),
  token_period: duration().optional().meta({
    description: 'Makes the tokens periodic: each renewal extends them by this. At most `mountMaxTtl`.',
    default: DEFAULT_TOKEN_SETTINGS.period,
  }),
  token_explicit_max_ttl: duration().optional().meta({
    description: 'A limit on the lifetime of the tokens that no renewal passes; 0: none.',
    default: DEFAULT_TOKEN_SETTINGS.explicit_max_ttl,
  }),
  token_policies: stringList().optional().meta({
    description:
      'The policies of the tokens, stored as given (trimmed). `root` is refused: an auth method mints no root tokens.',
    default: DEFAULT_TOKEN_SETTINGS.policies,
  }),
  token_bound_cidrs: stringList().optional().meta({
    description: 'IP addresses or CIDR blocks that logins, and the tokens, must come from.',
    default: DEFAULT_TOKEN_SETTINGS.bound_cidrs,
  }),
  token_no_default_policy: bool().optional().meta({
    description: 'Leaves the `default` policy out of the tokens.',
    default: DEFAULT_TOKEN_SETTINGS.no_default_policy,
  }),
  token_num_uses: int({ min: 0 }).optional().meta({
    description: 'How many times each token may be used; 0: unlimited.',
    default: DEFAULT_TOKEN_SETTINGS.num_uses,
  }),
  token_type: str({ maxLength: 32 }).optional().meta({
    description: '`default`, `service` or `batch` (`""` is `default`). A `batch` token has no period and no use count.',
    default: DEFAULT_TOKEN_SETTINGS.type,
  }),
  ttl: legacy(duration().optional(), 'token_ttl'),
  max_ttl: legacy(duration().optional(), 'token_max_ttl'),
  period: legacy(duration().optional(), 'token_period'),
  policies: legacy(
    stringList().optional(),
    'token_policies',
    ', sanitised: trimmed, lower-cased, de-duplicated and sorted',
  ),
};

type TokenFields = { [K in keyof typeof tokenFieldShape]: z.output<(typeof tokenFieldShape)[K]> };

/** Policies as Vault sanitises the legacy field: trimmed, lower-cased, de-duplicated, sorted. */
export function sanitizePolicies(policies: readonly string[]): string[] {
  return [...new Set(policies.map((policy) => policy.trim().toLowerCase()).filter((policy) => policy !== ''))].sort();
}

const ROOT_POLICY = 'root';

/**
 * Refuses `root` among the policies a login would grant. A service refuses to mint root tokens for an auth method, and
 * a login refused after the instance's nonce was committed would lock the instance out; so roles and role tags may
 * not name it, and a login whose role (stored before this rule) does is refused before anything is committed.
 */
export function refuseRootPolicy(policies: readonly string[], what: string): void {
  if (policies.some((policy) => policy.trim().toLowerCase() === ROOT_POLICY)) {
    throw new InvalidRequest(
      `${what} cannot include the "${ROOT_POLICY}" policy: auth methods cannot create root tokens`,
    );
  }
}

function tokenType(value: string): TokenType {
  const type = value === '' ? 'default' : value;
  if (!(TOKEN_TYPES as readonly string[]).includes(type))
    throw new InvalidRequest(`invalid 'token_type' value ${JSON.stringify(value)}`);
  return type as TokenType;
}

function boundCidrs(values: string[]): string[] {
  for (const value of values) {
    if (!parseCidr(value)) {
      throw new InvalidRequest(
        `invalid value for field "token_bound_cidrs": ${JSON.stringify(value)} is not an IP address or CIDR block`,
      );
    }
  }
  return values;
}

/**
 * A legacy field and its token_* successor: the token value wins when both are sent and is mirrored into the legacy
 * slot; a legacy value sent alone fills both; a token value sent alone clears the legacy slot.
 */
function upgrade<T>(
  legacy: T | undefined,
  token: T | undefined,
  current: { legacy: T; token: T },
  cleared: T,
): { legacy: T; token: T } {
  if (token !== undefined) return { legacy: legacy !== undefined ? token : cleared, token };
  if (legacy !== undefined) return { legacy, token: legacy };
  return current;
}

/** Applies the supplied token fields (and their deprecated aliases) and checks the rules that tie them together. */
export function applyTokenFields(
  current: { token: TokenSettings; legacy: LegacyTokenFields },
  fields: Partial<TokenFields>,
): { token: TokenSettings; legacy: LegacyTokenFields } {
  const token: TokenSettings = { ...current.token };
  if (fields.token_explicit_max_ttl !== undefined) token.explicit_max_ttl = fields.token_explicit_max_ttl;
  if (fields.token_bound_cidrs !== undefined) token.bound_cidrs = boundCidrs(fields.token_bound_cidrs);
  if (fields.token_no_default_policy !== undefined) token.no_default_policy = fields.token_no_default_policy;
  if (fields.token_num_uses !== undefined) token.num_uses = fields.token_num_uses;
  if (fields.token_type !== undefined) token.type = tokenType(fields.token_type);

  const pick = <K extends 'ttl' | 'max_ttl' | 'period'>(key: K) =>
    upgrade<number>(fields[key], fields[`token_${key}`], { legacy: current.legacy[key], token: current.token[key] }, 0);
  const ttl = pick('ttl');
  const maxTtl = pick('max_ttl');
  const period = pick('period');
  const legacyPolicies = fields.policies === undefined ? undefined : sanitizePolicies(fields.policies);
  const currentPolicies = { legacy: current.legacy.policies, token: current.token.policies };
  const policies = upgrade<string[]>(legacyPolicies, fields.token_policies, currentPolicies, []);
  token.ttl = ttl.token;
  token.max_ttl = maxTtl.token;
  token.period = period.token;
  token.policies = policies.token;
  refuseRootPolicy(token.policies, 'token_policies');

  if (token.type === 'batch' && token.period !== 0) {
    throw new InvalidRequest("'token_type' cannot be 'batch' when set to generate periodic tokens");
  }
  if (token.type === 'batch' && token.num_uses !== 0) {
    throw new InvalidRequest("'token_type' cannot be 'batch' when set to generate tokens with limited use count");
  }
  if (token.max_ttl > 0 && token.ttl > token.max_ttl) {
    throw new InvalidRequest("'token_ttl' cannot be greater than 'token_max_ttl'");
  }
  return {
    token,
    legacy: { ttl: ttl.legacy, max_ttl: maxTtl.legacy, period: period.legacy, policies: policies.legacy },
  };
}

/** The token fields of a read, with the legacy ones present only while they are set, as in Vault. */
export function tokenView(token: TokenSettings, legacy: LegacyTokenFields): Record<string, unknown> {
  return {
    token_bound_cidrs: [...token.bound_cidrs],
    token_explicit_max_ttl: token.explicit_max_ttl,
    token_max_ttl: token.max_ttl,
    token_no_default_policy: token.no_default_policy,
    token_num_uses: token.num_uses,
    token_period: token.period,
    token_policies: [...token.policies],
    token_ttl: token.ttl,
    token_type: token.type,
    ...(legacy.ttl > 0 ? { ttl: legacy.ttl } : {}),
    ...(legacy.max_ttl > 0 ? { max_ttl: legacy.max_ttl } : {}),
    ...(legacy.period > 0 ? { period: legacy.period } : {}),
    ...(legacy.policies.length > 0 ? { policies: [...token.policies] } : {}),
  };
}
