// Token roles (auth/token/roles/<name>): what a token made with auth/token/create/<name> may hold and how it lives.
// Durable in the configured storage, one document per role read through its format (so a later change of the format is
// an upgrade step), and read afresh on every use: every process over one storage sees a role change at once.
import { z } from 'zod';
import { documentFolder } from '../../auth/context/stored-document.js';
import type { JsonStore } from '../../core/store/stored-json.js';
import { compareKeys } from '../../lib/key-order.js';

/** Vault's role names: word characters, with `-` and `.` inside (a pattern, for the routes' paths). */
export const ROLE_NAME_SOURCE = String.raw`\w(?:[\w.-]*\w)?`;
const ROLE_NAME = new RegExp(`^${ROLE_NAME_SOURCE}$`);

const names = z.array(z.string());

const roleShape = z.object({
  name: z.string(),
  allowed_policies: names,
  disallowed_policies: names,
  allowed_policies_glob: names,
  disallowed_policies_glob: names,
  orphan: z.boolean(),
  renewable: z.boolean(),
  path_suffix: z.string(),
  /** Seconds; 0 = none. */
  token_period: z.number(),
  token_explicit_max_ttl: z.number(),
  token_bound_cidrs: names,
  token_no_default_policy: z.boolean(),
  /** 0 = unlimited. */
  token_num_uses: z.number(),
  /** Only service tokens are made here; `default-service` is Vault's default, kept so that a read shows it. */
  token_type: z.enum(['service', 'default-service']),
  allowed_entity_aliases: names,
  /** The deprecated names' values as last written, which a read shows as Vault does; the token_ fields rule. */
  period: z.number(),
  explicit_max_ttl: z.number(),
  bound_cidrs: names,
});

export type TokenRole = z.output<typeof roleShape>;

/** A role as a create with no fields makes it. */
export function newRole(name: string): TokenRole {
  return {
    name,
    allowed_policies: [],
    disallowed_policies: [],
    allowed_policies_glob: [],
    disallowed_policies_glob: [],
    orphan: false,
    renewable: true,
    path_suffix: '',
    token_period: 0,
    token_explicit_max_ttl: 0,
    token_bound_cidrs: [],
    token_no_default_policy: false,
    token_num_uses: 0,
    token_type: 'default-service',
    allowed_entity_aliases: [],
    period: 0,
    explicit_max_ttl: 0,
    bound_cidrs: [],
  };
}

const roles = documentFolder({ folder: 'sys/token/roles/', shape: roleShape });

export class TokenRoleStore {
  constructor(private readonly store: JsonStore) {}

  /** The role of that name; undefined when there is none (or the name is not a role name). */
  async get(name: string): Promise<TokenRole | undefined> {
    if (!ROLE_NAME.test(name)) return undefined;
    const { key, format } = roles.named(name);
    const stored = await this.store.get<unknown>(key);
    return stored === undefined ? undefined : format.read(stored, key);
  }

  async put(role: TokenRole): Promise<void> {
    const { key, format } = roles.named(role.name);
    await this.store.put(key, format.write(role));
  }

  async delete(name: string): Promise<void> {
    if (ROLE_NAME.test(name)) await this.store.delete(roles.named(name).key);
  }

  async names(): Promise<string[]> {
    return (await this.store.list(roles.folder)).filter((name) => !name.endsWith('/')).sort(compareKeys);
  }
}
