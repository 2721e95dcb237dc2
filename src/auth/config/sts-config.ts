import { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import { str } from '../../core/framework/fields.js';
import type { StsRoleBinding } from '../../ports/cloud.js';
import type { AuthContext } from '../context/auth-context.js';
import { documentFolder } from '../context/stored-document.js';

const storedStsConfig = z.object({
  sts_role: z.string(),
  /** Omitted when not configured. */
  external_id: z.string().optional(),
});

/** The stored `config/sts/<account_id>`. */
export type StsConfig = z.infer<typeof storedStsConfig>;

/** The STS roles to assume per account: one document per account id. */
export const stsConfigDocuments = documentFolder({ folder: 'config/sts/', shape: storedStsConfig });

export const stsConfigFields = z.object({
  sts_role: str({ maxLength: 2048 })
    .optional()
    .describe('The ARN of the role to assume; required on create, never empty.'),
  external_id: str({ maxLength: 1224 }).optional().describe('The external id to assume it with; `""` removes it.'),
});

export function applyStsConfigFields(
  current: StsConfig | undefined,
  fields: z.output<typeof stsConfigFields>,
): StsConfig {
  if (fields.sts_role === undefined && !current) throw new InvalidRequest('missing sts role');
  const stsRole = fields.sts_role ?? current!.sts_role;
  if (stsRole.trim() === '') throw new InvalidRequest('sts role cannot be empty');
  const externalId = fields.external_id ?? current?.external_id ?? '';
  return externalId === '' ? { sts_role: stsRole } : { sts_role: stsRole, external_id: externalId };
}

export async function readStsConfig(context: AuthContext, accountId: string): Promise<StsConfig | undefined> {
  return context.read(stsConfigDocuments.named(accountId));
}

export function stsRoleBinding(config: StsConfig): StsRoleBinding {
  return config.external_id
    ? { roleArn: config.sts_role, externalId: config.external_id }
    : { roleArn: config.sts_role };
}
