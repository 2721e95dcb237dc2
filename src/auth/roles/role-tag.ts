import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { InvalidRequest } from '../../lib/errors.js';
import { normalizeRoleName } from './role.js';

/**
 * Role tags: an instance tag value that narrows a role down (a subset of its policies, a lower max TTL, one instance,
 * no reauthentication), signed with the role's HMAC key. Canonical form:
 *
 *   v1:<nonce>:r=<role>:d=<bool>:m=<bool>[:p=<policy,...>][:i=<instance id>][:t=<max ttl seconds>]:<hmac>
 *
 * The nonce (8 random bytes) and the HMAC-SHA256 are unpadded base64url, so a raw tag never holds '/' and fits in a
 * request path. `p=` is present whenever the tag names its policies; `p=` with nothing after it grants no role
 * policies, no `p=` at all inherits the role's.
 */

export const ROLE_TAG_VERSION = 'v1';
/** EC2's limit on a tag value. */
export const MAX_ROLE_TAG_LENGTH = 255;

/** What a role tag says, signed or not: the narrowing it applies to its role at ec2 login. */
export interface RoleTag {
  /** Random, so that two tags of the same narrowing differ. */
  nonce: string;
  /** The role name as written in the tag (lower-cased at creation). */
  role: string;
  /** undefined inherits the role's policies; an empty list grants none of them. */
  policies?: string[];
  /** '' when the tag is not bound to one instance. */
  instanceId: string;
  /** Seconds; 0 when the tag sets no max TTL. */
  maxTtl: number;
  disallowReauthentication: boolean;
  allowInstanceMigration: boolean;
}

/** A tag as presented, with the HMAC it carries (not yet verified). */
export interface ParsedRoleTag extends RoleTag {
  hmac: string;
}

// Go's strconv.ParseBool spellings, which Vault accepts in presented tags.
const TRUE_WORDS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE_WORDS = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

export function createRoleTagNonce(): string {
  return randomBytes(8).toString('base64url');
}

/** The signed part of a tag, rebuilt in canonical order whatever the order it was presented in. */
export function roleTagPlaintext(tag: RoleTag): string {
  let value = `${ROLE_TAG_VERSION}:${tag.nonce}:r=${tag.role}:d=${tag.disallowReauthentication}:m=${tag.allowInstanceMigration}`;
  if (tag.policies !== undefined) value += `:p=${tag.policies.join(',')}`;
  if (tag.instanceId !== '') value += `:i=${tag.instanceId}`;
  if (tag.maxTtl > 0) value += `:t=${tag.maxTtl}`;
  return value;
}

function roleTagHmac(hmacKey: string, plaintext: string): string {
  return createHmac('sha256', hmacKey).update(plaintext).digest('base64url');
}

/** The complete tag value for `tag`, signed with the role's key; refused when it would not fit on an instance. */
export function signRoleTag(tag: RoleTag, hmacKey: string): string {
  const plaintext = roleTagPlaintext(tag);
  const value = `${plaintext}:${roleTagHmac(hmacKey, plaintext)}`;
  if (value.length > MAX_ROLE_TAG_LENGTH) {
    throw new InvalidRequest(`role tag 'value' exceeding the limit of ${MAX_ROLE_TAG_LENGTH} characters`);
  }
  return value;
}

function parseFlag(item: string): boolean {
  const word = item.slice(2);
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  throw new InvalidRequest(`invalid boolean in item ${JSON.stringify(item)} of tag`);
}

/** Parses a presented tag value. Format errors are InvalidRequest; the HMAC is checked by verifyRoleTag. */
export function parseRoleTag(value: string): ParsedRoleTag {
  const items = value.split(':');
  if (items.length < 4) throw new InvalidRequest('invalid tag');
  if (items[0] !== ROLE_TAG_VERSION) throw new InvalidRequest('invalid role tag version');
  const tag: ParsedRoleTag = {
    nonce: items[1]!,
    role: '',
    instanceId: '',
    maxTtl: 0,
    disallowReauthentication: false,
    allowInstanceMigration: false,
    hmac: items[items.length - 1]!,
  };
  if (tag.nonce === '' || tag.hmac === '') throw new InvalidRequest('invalid tag');
  const seen = new Set<string>();
  for (const item of items.slice(2, -1)) {
    const key = item.slice(0, 2);
    if (!['i=', 'r=', 'p=', 'd=', 'm=', 't='].includes(key))
      throw new InvalidRequest(`unrecognized item ${JSON.stringify(item)} in tag`);
    // One spelling per signed tag: a repeated item could otherwise make a second, equally valid string of one tag.
    if (seen.has(key)) throw new InvalidRequest(`repeated item ${JSON.stringify(item)} in tag`);
    seen.add(key);
    const content = item.slice(2);
    if (key === 'i=') tag.instanceId = content;
    else if (key === 'r=') tag.role = content;
    else if (key === 'p=') tag.policies = content === '' ? [] : content.split(',');
    else if (key === 'd=') tag.disallowReauthentication = parseFlag(item);
    else if (key === 'm=') tag.allowInstanceMigration = parseFlag(item);
    else if (/^\d{1,10}$/.test(content)) tag.maxTtl = Number(content);
    else throw new InvalidRequest(`invalid max TTL in item ${JSON.stringify(item)} of tag`);
  }
  if (tag.role === '') throw new InvalidRequest('missing role name');
  return tag;
}

/** Whether the tag's HMAC is the one the role's key gives its canonical plaintext (constant-time comparison). */
export function verifyRoleTag(tag: ParsedRoleTag, hmacKey: string): boolean {
  const expected = Buffer.from(roleTagHmac(hmacKey, roleTagPlaintext(tag)));
  const presented = Buffer.from(tag.hmac);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/**
 * The one spelling of a tag: canonical field order and flag words. Tags are deny-listed and looked up by it, so
 * reordering the items of a denied tag does not get it past the deny list.
 */
export function canonicalRoleTag(tag: ParsedRoleTag): string {
  return `${roleTagPlaintext(tag)}:${tag.hmac}`;
}

/** Whether the tag was made for this role; role names compare case-insensitively, as everywhere else. */
export function roleTagNamesRole(tag: RoleTag, roleName: string): boolean {
  return normalizeRoleName(tag.role) === normalizeRoleName(roleName);
}

/** Whether every policy the tag names is one of the role's token policies (case-insensitively, as tags lower-case). */
export function roleTagPoliciesAllowed(tagPolicies: readonly string[], rolePolicies: readonly string[]): boolean {
  const allowed = new Set(rolePolicies.map((policy) => policy.toLowerCase()));
  return tagPolicies.every((policy) => allowed.has(policy.toLowerCase()));
}
