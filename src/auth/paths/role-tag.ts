import { z } from 'zod';
import { InternalError, InvalidRequest } from '../../lib/errors.js';
import { bool, duration, str, stringList } from '../../core/framework/fields.js';
import { ok } from '../../core/framework/response.js';
import { operation, route, type Route } from '../../core/framework/routing-table.js';
import type { AuthContext } from '../context/auth-context.js';
import { createRoleTagNonce, roleTagPoliciesAllowed, signRoleTag } from '../roles/role-tag.js';
import { normalizeRoleName, readRole, type StoredRole } from '../roles/role.js';
import { refuseRootPolicy, sanitizePolicies } from '../roles/token-settings.js';
import { pathPattern } from './pattern.js';

const roleTagFields = z.object({
  policies: stringList()
    .optional()
    .describe(
      "The policies the tag grants instead of the role's, all among the role's `token_policies`; absent: the role's.",
    ),
  max_ttl: duration({ allowNegative: true }).optional().meta({
    description: 'The longest lifetime of a token granted with the tag; 0: no limit of its own.',
    default: 0,
  }),
  instance_id: str({ maxLength: 128 }).optional().describe('The only instance that may log in with the tag.'),
  allow_instance_migration: bool().optional().meta({
    description: "Recorded in the tag; login follows the role's `allow_instance_migration` instead, as in Vault.",
    default: false,
  }),
  disallow_reauthentication: bool().optional().meta({
    description: 'An instance logging in with the tag may do so once only.',
    default: false,
  }),
});

type RoleTagFields = z.output<typeof roleTagFields>;

const CAPPED = 'and will be capped at login time.';

function refuseSeparators(field: string, values: readonly string[]): void {
  if (values.some((value) => value.includes(':')))
    throw new InvalidRequest(`${field} of a role tag cannot contain ':'`);
}

/** The narrowing a tag may carry: policies within the role's, flags that do not contradict each other. */
function checkTagFields(role: StoredRole, fields: RoleTagFields, mountMaxTtl: number): string[] {
  const warnings: string[] = [];
  if (fields.policies !== undefined && !roleTagPoliciesAllowed(fields.policies, role.token.policies)) {
    throw new InvalidRequest('policies on the role tag must be subset of policies on the role');
  }
  if (fields.disallow_reauthentication && fields.allow_instance_migration) {
    throw new InvalidRequest('cannot set both disallow_reauthentication and allow_instance_migration');
  }
  if (fields.allow_instance_migration && !role.allow_instance_migration) {
    warnings.push(
      'Role does not allow instance migration. Login will not be allowed with this tag unless the role value is updated.',
    );
  }
  const maxTtl = fields.max_ttl ?? 0;
  if (maxTtl < 0) throw new InvalidRequest('max_ttl cannot be negative');
  if (maxTtl > mountMaxTtl) {
    warnings.push(`Given max TTL of ${maxTtl} is greater than the mount maximum of ${mountMaxTtl} seconds, ${CAPPED}`);
  }
  if (role.token.max_ttl !== 0 && maxTtl > role.token.max_ttl) {
    warnings.push(
      `Given max TTL of ${maxTtl} is greater than the role maximum of ${role.token.max_ttl} seconds, ${CAPPED}`,
    );
  }
  return warnings;
}

export function roleTagRoutes(context: AuthContext): Route[] {
  return [
    route({
      pattern: pathPattern('role/:role/tag'),
      summary: "Creates a role tag: a signed value an instance carries to narrow its role's grant.",
      operations: {
        write: operation(roleTagFields, async ({ params, fields }) => {
          const name = normalizeRoleName(params.role!);
          const role = await readRole(context, name);
          if (!role) throw new InvalidRequest(`entry not found for role ${name}`);
          if (role.role_tag === '') throw new InvalidRequest('tag creation is not enabled for this role');
          if (!role.hmac_key) throw new InternalError('the role has no HMAC key');
          const policies = fields.policies === undefined ? undefined : sanitizePolicies(fields.policies);
          const instanceId = (fields.instance_id ?? '').toLowerCase();
          refuseSeparators('policies', policies ?? []);
          refuseSeparators('instance_id', [instanceId]);
          // A tag without policies grants the role's: a role stored before root was refused must not pass it on.
          refuseRootPolicy(policies ?? role.token.policies, "the role tag's policies");
          const warnings = checkTagFields(role, { ...fields, policies }, context.mountMaxTtl);
          const value = signRoleTag(
            {
              nonce: createRoleTagNonce(),
              role: name,
              ...(policies === undefined ? {} : { policies }),
              instanceId,
              maxTtl: fields.max_ttl ?? 0,
              disallowReauthentication: fields.disallow_reauthentication ?? false,
              allowInstanceMigration: fields.allow_instance_migration ?? false,
            },
            role.hmac_key,
          );
          return ok({ tag_key: role.role_tag, tag_value: value }, warnings);
        }),
      },
    }),
  ];
}
