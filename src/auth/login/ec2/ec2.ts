import { formatDuration } from '../../../lib/duration.js';
import type { AuthGrant } from '../../../core/framework/request.js';
import type { InstanceDescription } from '../../../ports/cloud.js';
import { updateAccessListEntry } from '../../lists/accesslist.js';
import type { AuthContext } from '../../context/auth-context.js';
import { resolveCloudScope } from '../../config/cloud-scope.js';
import { readIdentityConfig, type Ec2Alias } from '../../config/identity-config.js';
import type { IdentityDocument } from './identity-document.js';
import type { StoredRole } from '../../roles/role.js';
import { refuseRootPolicy } from '../../roles/token-settings.js';
import { checkBoundRegion, checkInstanceConstraints } from '../common/bound-constraints.js';
import { verifyEc2Document, type Ec2DocumentFields } from './ec2-document.js';
import { buildGrant } from '../common/grant.js';
import { describeRunningInstance } from '../common/instance.js';
import { loginRole } from '../common/login-role.js';
import { admitLogin, generateNonce, type LoginOutcome } from './nonce.js';
import { checkRoleTag } from './role-tag-check.js';
import { maxTtlBounds } from '../common/ttl.js';

export interface Ec2LoginFields extends Ec2DocumentFields {
  role?: string;
  nonce?: string;
}

/** Where an ec2 login's instance is: its identity document's instance, account and region. */
export interface Ec2InstanceRef {
  instanceId: string;
  accountId: string;
  region: string;
}

/**
 * The instance of an ec2 login or renewal, described in its own account (with that account's config/sts role): it
 * must be running and meet every constraint of the role (as in Vault).
 */
export async function checkEc2Instance(
  context: AuthContext,
  role: StoredRole,
  roleName: string,
  ref: Ec2InstanceRef,
): Promise<InstanceDescription> {
  const scope = await resolveCloudScope(context, { region: ref.region, accountId: ref.accountId });
  const what = `failed to verify instance ID ${JSON.stringify(ref.instanceId)}`;
  const instance = await describeRunningInstance(context, scope, ref.instanceId, ref.accountId, what);
  checkBoundRegion(role, roleName, ref.region);
  // Vault's spelling; iam inferencing writes it in lower case.
  await checkInstanceConstraints(
    context,
    scope,
    role,
    roleName,
    { instance, accountId: ref.accountId },
    'Error validating instance',
  );
  return instance;
}

/**
 * The ec2 login (as in Vault): the signed document first (nothing is looked up for an unauthenticated caller),
 * then the role, the running instance, the bound constraints and the role tag, and last the access-list
 * entry, the commit point, whose nonce rules re-run against whatever a concurrent login of the instance stored.
 * A refusal of the fields is thrown at once. Up to the role the steps are chained rather than awaited: a refusal
 * there (a bad signature, a missing role: the most frequent) then reaches the router as one rejection, where each
 * async layer would throw it again (each throw costs about 0.2 µs, measured).
 */
export function ec2Login(
  context: AuthContext,
  fields: Ec2LoginFields,
  remoteAddress: string | undefined,
): Promise<AuthGrant> {
  return verifyEc2Document(context, fields).then((document) => {
    const roleName = fields.role || document.imageId;
    return loginRole(context, roleName, 'ec2', remoteAddress).then((role) =>
      admitInstance(context, fields, document, roleName, role),
    );
  });
}

/** The rest of an ec2 login, once its document verified and its role admits it. */
async function admitInstance(
  context: AuthContext,
  fields: Ec2LoginFields,
  document: IdentityDocument,
  roleName: string,
  role: StoredRole,
): Promise<AuthGrant> {
  const instance = await checkEc2Instance(context, role, roleName, document);
  const tag = await checkRoleTag(context, role, roleName, instance);
  const policies = tag?.policies ?? role.token.policies;
  // Before the access-list commit: a grant the service must refuse may not consume the instance's nonce.
  refuseRootPolicy(policies, 'the policies of this login');
  const tagMaxTtl = tag?.maxTtl ?? 0;
  const { shortest, longest } = maxTtlBounds(context.mountMaxTtl, role.token.max_ttl, tagMaxTtl);
  const identityConfig = await readIdentityConfig(context);

  let outcome: LoginOutcome | undefined;
  const generatedNonce = generateNonce();
  await updateAccessListEntry(context, document.instanceId, (current) => {
    outcome = admitLogin(current, {
      suppliedNonce: fields.nonce,
      generatedNonce,
      pendingTime: document.pendingTime,
      roleName,
      disallowReauthentication: role.disallow_reauthentication || (tag?.disallowReauthentication ?? false),
      allowInstanceMigration: role.allow_instance_migration,
      now: context.now(),
      lifetime: longest,
    });
    return outcome.entry;
  });
  // The outcome of the change that committed: a re-run after a conflict replaced any earlier one.
  const { entry, returnedNonce } = outcome!;

  const fixedMetadata = new Map([
    ['role_tag_max_ttl', formatDuration(tagMaxTtl)],
    ['role', roleName],
  ]);
  if (returnedNonce !== undefined) fixedMetadata.set('nonce', returnedNonce);
  return buildGrant({
    role,
    policies,
    maxTtl: shortest,
    fixedMetadata,
    selectable: ec2Metadata(document),
    selected: identityConfig.ec2_metadata,
    aliasName: ec2AliasName(identityConfig.ec2_alias, role.role_id, document),
    internalData: {
      auth_type: 'ec2',
      instance_id: document.instanceId,
      region: document.region,
      account_id: document.accountId,
      role_name: roleName,
      role_id: role.role_id,
      role_tag_max_ttl: tagMaxTtl,
      access_list_created: entry.creation_time,
    },
  });
}

function ec2Metadata(document: IdentityDocument): Map<string, string> {
  return new Map([
    ['account_id', document.accountId],
    ['auth_type', 'ec2'],
    ['ami_id', document.imageId],
    ['instance_id', document.instanceId],
    ['region', document.region],
  ]);
}

function ec2AliasName(alias: Ec2Alias, roleId: string, document: IdentityDocument): string {
  if (alias === 'instance_id') return document.instanceId;
  if (alias === 'image_id') return document.imageId;
  return roleId;
}
