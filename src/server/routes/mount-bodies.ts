// The bodies of sys/mounts/:path, sys/auth/:path and their tune endpoints, as Vault's clients send them (hvac sends
// every field, null when unset; the Vault CLI sends `config` with its defaults): read into a new mount or a tuning.
import { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import { bool, duration, isPlainObject, str, typed } from '../../core/framework/fields.js';
import type { NewMount } from '../mounts/mount-table.js';
import type { MountTuning } from '../mounts/mount-tuning.js';
import { parseKvVersion } from '../mounts/mount-tuning.js';
import { fields } from '../dispatch/route.js';

/** A lease TTL: a duration, or `system` (and empty) for the system's, stored as 0. */
const ttl = () => z.union([z.literal('system').transform(() => 0), duration()]);

/** Vault's options map: string values, numbers read in their text form (hvac sends `{"version": 2}`). */
const options = () =>
  typed(
    z.unknown().transform((value, ctx): Record<string, string> => {
      if (value === null || value === undefined) return {};
      const entries = isPlainObject(value) ? Object.entries(value) : undefined;
      if (!entries || entries.some(([, item]) => typeof item !== 'string' && typeof item !== 'number')) {
        ctx.addIssue({ code: 'custom', message: 'expected a map of strings' });
        return z.NEVER;
      }
      return Object.fromEntries(entries.map(([key, item]) => [key, String(item)]));
    }),
    'map of strings',
  );

/**
 * Settings Vault has and this server does not act on: accepted when unset (empty, false, none), as clients send them
 * so; refused when set, rather than stored to no effect.
 */
const UNSUPPORTED = [
  'audit_non_hmac_request_keys',
  'audit_non_hmac_response_keys',
  'listing_visibility',
  'passthrough_request_headers',
  'allowed_response_headers',
  'force_no_cache',
  'plugin_version',
  'user_lockout_config',
  'identity_token_key',
  'delegated_auth_accessors',
];
const TOKEN_TYPES = new Set(['', 'default', 'default-service', 'service']);

function refuseUnsupported(body: Record<string, unknown>, where: string): void {
  for (const name of UNSUPPORTED) {
    const value = body[name];
    const unset =
      value === undefined ||
      value === null ||
      value === '' ||
      value === false ||
      (Array.isArray(value) && !value.length);
    if (!unset) throw new InvalidRequest(`${where}${name} is not supported by this server`);
  }
  const tokenType = body.token_type;
  if (tokenType !== undefined && tokenType !== null && !(typeof tokenType === 'string' && TOKEN_TYPES.has(tokenType)))
    throw new InvalidRequest(`${where}token_type ${JSON.stringify(tokenType)} is not supported by this server`);
}

const objectOf = (body: unknown): Record<string, unknown> => (isPlainObject(body) ? body : {});

const configSchema = z.object({ default_lease_ttl: ttl().optional(), max_lease_ttl: ttl().optional() });
const enableSchema = z.object({
  type: str({ maxLength: 64 }),
  description: str({ maxLength: 4096 }).optional(),
  options: options().optional(),
  // Replication and seal wrapping are Vault Enterprise's: every mount here is local to its storage, which is encrypted.
  local: bool().optional(),
  seal_wrap: bool().optional(),
  external_entropy_access: bool().optional(),
  plugin_name: str({ maxLength: 64 }).optional(),
});

/** The secrets engine a sys/mounts/:path body asks for: KV, of version 1 or 2, under any of Vault's names for it. */
function secretsEngine(type: string, given: Record<string, string> | undefined): Record<string, string> {
  const { version, ...rest } = given ?? {};
  const kv = (wanted: '1' | '2') => ({ ...rest, version: wanted });
  switch (type) {
    case 'kv':
      return kv(version === undefined || version === '' ? '1' : parseKvVersion(version));
    case 'kv-v1':
      return kv('1');
    case 'kv-v2':
      return kv('2');
    case 'generic':
      // Vault's first name for KV version 1, which it still mounts.
      if (version) throw new InvalidRequest('secrets engine "generic" does not allow setting a version');
      return kv('1');
    case '':
      throw new InvalidRequest('backend type must be specified as a string');
    default:
      throw new InvalidRequest(`plugin not found in the catalog: ${type}`);
  }
}

function authEngine(type: string): string {
  if (type === 'aws' || type === 'aws-ec2') return 'aws';
  if (type === 'token') throw new InvalidRequest('token credential backend cannot be instantiated');
  if (type === '') throw new InvalidRequest('backend type must be specified as a string');
  throw new InvalidRequest(`plugin not found in the catalog: ${type}`);
}

/** A new mount at `path` (normalised and full: `auth/` first for an auth method) from a sys/mounts or sys/auth body. */
export function newMount(path: string, body: unknown, auth: boolean): NewMount {
  const given = fields(enableSchema, body);
  const rawConfig = objectOf(objectOf(body).config);
  refuseUnsupported(rawConfig, 'config.');
  const config = fields(configSchema, rawConfig);
  const type = given.plugin_name && given.type === 'plugin' ? given.plugin_name : given.type;
  return {
    path,
    type: auth ? authEngine(type) : 'kv',
    description: given.description ?? '',
    options: auth ? null : secretsEngine(type, given.options),
    defaultLeaseTtl: config.default_lease_ttl ?? 0,
    maxLeaseTtl: config.max_lease_ttl ?? 0,
  };
}

/** In a tune, an empty TTL leaves the mount's as it is: the Vault CLI sends both, empty unless its flag is given. */
const tunedTtl = () => z.union([z.literal('').transform(() => undefined), ttl()]);

const tuneSchema = z.object({
  description: str({ maxLength: 4096 }).optional(),
  default_lease_ttl: tunedTtl().optional(),
  max_lease_ttl: tunedTtl().optional(),
  options: options().optional(),
});

/** What a sys/mounts/:path/tune or sys/auth/:path/tune body changes. */
export function mountTuning(body: unknown): MountTuning {
  refuseUnsupported(objectOf(body), '');
  const given = fields(tuneSchema, body);
  return {
    description: given.description,
    defaultLeaseTtl: given.default_lease_ttl,
    maxLeaseTtl: given.max_lease_ttl,
    options: given.options && Object.keys(given.options).length > 0 ? given.options : undefined,
  };
}
