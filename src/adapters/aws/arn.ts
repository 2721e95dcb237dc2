/** The parts of an IAM or STS ARN that the provider needs to route a lookup. */
import { InvalidRequest } from '../../core/errors.js';
import { partitionFromName, type Partition } from './endpoints.js';

export interface ParsedArn {
  partition: Partition;
  accountId: string;
  /** `user`, `role`, `assumed-role`, `instance-profile`, ... */
  type: string;
  /** The friendly name: the last path item, or the role name of an assumed role. */
  name: string;
}

export function parseArn(arn: string): ParsedArn {
  const parts = arn.split(':');
  if (parts.length !== 6 || parts[0] !== 'arn') throw new InvalidRequest(`unrecognized ARN "${arn}"`);
  const [, partition = '', service = '', , accountId = '', resource = ''] = parts;
  if (service !== 'iam' && service !== 'sts') throw new InvalidRequest(`ARN "${arn}" is not an iam or sts ARN`);
  if (!/^\d{12}$/.test(accountId)) throw new InvalidRequest(`ARN "${arn}" has no valid account id`);
  const items = resource.split('/');
  const type = items[0] ?? '';
  const name = type === 'assumed-role' ? items[1] : items.length >= 2 ? items[items.length - 1] : undefined;
  if (!name) throw new InvalidRequest(`ARN "${arn}" names no ${type || 'resource'}`);
  return { partition: partitionFromName(partition), accountId, type, name };
}
