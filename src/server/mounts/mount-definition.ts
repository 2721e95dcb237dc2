// One mount as the table stores it, and as Vault's sys/mounts, sys/auth and tune endpoints show it.
import { z } from 'zod';

/** The engine a definition gets: KV version 1 or 2, or the AWS auth method. */
export type EngineKind = 'kv-v1' | 'kv-v2' | 'aws';

/**
 * A mount. `path` is where requests reach it (`secret/`, `auth/aws/`); `storagePrefix` is where its data lives, fixed
 * when the mount is made, so that a remount moves the data with the path in one write, and a path enabled again after a
 * disable never meets what an earlier mount there left behind.
 */
export interface MountDefinition {
  uuid: string;
  path: string;
  /** `kv` or `aws`, as sys/mounts and sys/auth report it. */
  type: string;
  description: string;
  accessor: string;
  storagePrefix: string;
  /** KV mounts: `{ version: '1' | '2' }`; none on auth mounts. */
  options: Record<string, string> | null;
  /** Seconds; 0 means the system's value. */
  defaultLeaseTtl: number;
  maxLeaseTtl: number;
}

/** The stored shape, checked on every read so that a damaged entry is a clear 500, not a TypeError. */
export const storedDefinition = z.object({
  uuid: z.string(),
  path: z.string(),
  type: z.string(),
  description: z.string(),
  accessor: z.string(),
  storagePrefix: z.string(),
  options: z.record(z.string(), z.string()).nullable(),
  defaultLeaseTtl: z.number(),
  maxLeaseTtl: z.number(),
});

export const isAuthMount = (definition: Pick<MountDefinition, 'path'>) => definition.path.startsWith('auth/');

export function kindOf(definition: Pick<MountDefinition, 'type' | 'options'>): EngineKind {
  if (definition.type === 'aws') return 'aws';
  return definition.options?.version === '2' ? 'kv-v2' : 'kv-v1';
}

/** The TTLs the server uses when a mount has none of its own: tokens' default and maximum. */
export interface SystemTtls {
  defaultLeaseTtl: number;
  maxLeaseTtl: number;
}

/** The mount's effective default TTL: its own, or the system's. */
export const effectiveDefaultTtl = (definition: MountDefinition, system: SystemTtls) =>
  definition.defaultLeaseTtl || system.defaultLeaseTtl;

/** The mount's effective maximum TTL: its own, or the system's. */
export const effectiveMaxTtl = (definition: MountDefinition, system: SystemTtls) =>
  definition.maxLeaseTtl || system.maxLeaseTtl;

/**
 * A mount as sys/mounts, sys/auth and sys/internal/ui/mounts list it: Vault's fields, the TTLs as tuned (0 when the
 * system's apply). `path` is left out: the listings key by it, each below its own table's root.
 */
export function mountView(definition: MountDefinition): Record<string, unknown> {
  return {
    type: definition.type,
    description: definition.description,
    accessor: definition.accessor,
    uuid: definition.uuid,
    local: false,
    seal_wrap: false,
    external_entropy_access: false,
    options: definition.options,
    config: {
      default_lease_ttl: definition.defaultLeaseTtl,
      max_lease_ttl: definition.maxLeaseTtl,
      force_no_cache: false,
      ...(isAuthMount(definition) ? { token_type: 'default-service' } : {}),
    },
  };
}

/** What a tune read answers: the TTLs in effect, the system's where the mount has none. */
export function tuneView(definition: MountDefinition, system: SystemTtls): Record<string, unknown> {
  return {
    description: definition.description,
    default_lease_ttl: definition.defaultLeaseTtl || system.defaultLeaseTtl,
    max_lease_ttl: effectiveMaxTtl(definition, system),
    force_no_cache: false,
    ...(definition.options ? { options: definition.options } : {}),
    ...(isAuthMount(definition) ? { token_type: 'default-service' } : {}),
  };
}

/** The token method, listed by sys/auth beside the table's mounts: it is the server's own, not an engine here. */
export const TOKEN_AUTH_VIEW: Record<string, unknown> = {
  type: 'token',
  description: 'token based credentials',
  accessor: 'auth_token',
  uuid: '',
  local: false,
  seal_wrap: false,
  external_entropy_access: false,
  options: null,
  config: { default_lease_ttl: 0, max_lease_ttl: 0, force_no_cache: false, token_type: 'default-service' },
};
