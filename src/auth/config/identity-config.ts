import { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import { str, stringList } from '../../core/framework/fields.js';
import type { AuthContext } from '../context/auth-context.js';
import { storedDocument } from '../context/stored-document.js';

export const IAM_ALIAS_VALUES = ['role_id', 'unique_id', 'full_arn'] as const;
export const EC2_ALIAS_VALUES = ['role_id', 'instance_id', 'image_id'] as const;
export type IamAlias = (typeof IAM_ALIAS_VALUES)[number];
export type Ec2Alias = (typeof EC2_ALIAS_VALUES)[number];

/** The metadata `default` stands for, for both login types. */
export const DEFAULT_AUTH_METADATA: readonly string[] = ['account_id', 'auth_type'];
export const IAM_METADATA_FIELDS: readonly string[] = [
  ...DEFAULT_AUTH_METADATA,
  'canonical_arn',
  'client_arn',
  'client_user_id',
  'inferred_aws_region',
  'inferred_entity_id',
  'inferred_entity_type',
];
export const EC2_METADATA_FIELDS: readonly string[] = [...DEFAULT_AUTH_METADATA, 'ami_id', 'instance_id', 'region'];

const storedIdentityConfig = z.object({
  iam_alias: z.enum(IAM_ALIAS_VALUES),
  iam_metadata: z.array(z.string()).nullable(),
  ec2_alias: z.enum(EC2_ALIAS_VALUES),
  ec2_metadata: z.array(z.string()).nullable(),
});

/** The stored `config/identity`; a metadata selection of null means `default`. */
export type StoredIdentityConfig = z.infer<typeof storedIdentityConfig>;

/** The identity configuration as login uses it: `default` already expanded. */
export interface IdentityConfig {
  iam_alias: IamAlias;
  /** The metadata keys to put on iam grants and aliases, in this order. */
  iam_metadata: string[];
  ec2_alias: Ec2Alias;
  ec2_metadata: string[];
}

const DEFAULT_STORED: StoredIdentityConfig = {
  iam_alias: 'role_id',
  iam_metadata: null,
  ec2_alias: 'role_id',
  ec2_metadata: null,
};

/** The identity configuration; a field it lacks reads as its default. */
export const identityConfigDocument = storedDocument({
  key: 'config/identity',
  shape: storedIdentityConfig,
  defaults: DEFAULT_STORED,
});

const choices = (values: readonly string[]) => values.map((value) => `\`${value}\``).join(', ');

export const identityConfigFields = z.object({
  iam_alias: str({ maxLength: 64 })
    .optional()
    .meta({
      description: `What names the alias of an iam login: ${choices(IAM_ALIAS_VALUES)}; \`full_arn\` is the ARN STS reported.`,
      default: DEFAULT_STORED.iam_alias,
    }),
  iam_metadata: stringList()
    .optional()
    .meta({
      description: `The metadata of iam logins: \`default\` (${choices(DEFAULT_AUTH_METADATA)}), or a list of ${choices(IAM_METADATA_FIELDS)}.`,
      default: 'default',
    }),
  ec2_alias: str({ maxLength: 64 })
    .optional()
    .meta({
      description: `What names the alias of an ec2 login: ${choices(EC2_ALIAS_VALUES)}.`,
      default: DEFAULT_STORED.ec2_alias,
    }),
  ec2_metadata: stringList()
    .optional()
    .meta({
      description: `The metadata of ec2 logins: \`default\` (${choices(DEFAULT_AUTH_METADATA)}), or a list of ${choices(EC2_METADATA_FIELDS)}.`,
      default: 'default',
    }),
});

type IdentityConfigFields = z.output<typeof identityConfigFields>;

function goList(items: readonly string[]): string {
  return `[${items.map((item) => JSON.stringify(item)).join(' ')}]`;
}

function checkAlias<T extends string>(field: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new InvalidRequest(
      `${field} of ${JSON.stringify(value)} not in set of allowed values: [${allowed.join(' ')}]`,
    );
  }
  return value as T;
}

/** `["default"]` selects the defaults (null); otherwise every item must be an available field, `default` excluded. */
function checkMetadata(selection: string[], available: readonly string[]): string[] | null {
  if (selection.length === 1 && selection[0] === 'default') return null;
  for (const item of selection) {
    if (item === 'default') {
      throw new InvalidRequest(
        `${goList(selection)} contains default - default can't be used in combination with other fields`,
      );
    }
    if (!available.includes(item)) {
      throw new InvalidRequest(
        `${goList(selection)} contains an unavailable field, please select from ${goList(available)}`,
      );
    }
  }
  return [...new Set(selection)];
}

export function applyIdentityConfigFields(
  current: StoredIdentityConfig | undefined,
  fields: IdentityConfigFields,
): StoredIdentityConfig {
  const next = { ...(current ?? DEFAULT_STORED) };
  if (fields.iam_alias !== undefined) next.iam_alias = checkAlias('iam_alias', fields.iam_alias, IAM_ALIAS_VALUES);
  if (fields.ec2_alias !== undefined) next.ec2_alias = checkAlias('ec2_alias', fields.ec2_alias, EC2_ALIAS_VALUES);
  if (fields.iam_metadata !== undefined) next.iam_metadata = checkMetadata(fields.iam_metadata, IAM_METADATA_FIELDS);
  if (fields.ec2_metadata !== undefined) next.ec2_metadata = checkMetadata(fields.ec2_metadata, EC2_METADATA_FIELDS);
  return next;
}

export function effectiveIdentityConfig(stored: StoredIdentityConfig | undefined): IdentityConfig {
  const source = stored ?? DEFAULT_STORED;
  return {
    iam_alias: source.iam_alias,
    iam_metadata: source.iam_metadata ?? [...DEFAULT_AUTH_METADATA],
    ec2_alias: source.ec2_alias,
    ec2_metadata: source.ec2_metadata ?? [...DEFAULT_AUTH_METADATA],
  };
}

/** The identity configuration login applies (the defaults when it was never written). */
export async function readIdentityConfig(context: AuthContext): Promise<IdentityConfig> {
  return effectiveIdentityConfig(await context.read(identityConfigDocument));
}
