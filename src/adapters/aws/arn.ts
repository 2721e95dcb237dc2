/** The parts of an IAM or STS ARN that the provider needs to route a lookup. */
import { parsePrincipalArn, type PrincipalType } from '../../lib/arn.js';
import { InvalidRequest } from '../../lib/errors.js';
import { partitionFromName, type Partition } from './api/endpoints.js';

export interface ParsedArn {
  partition: Partition;
  accountId: string;
  type: PrincipalType;
  /** The friendly name: the last path item, or the role name of an assumed role. */
  name: string;
}

/** A principal ARN (see parsePrincipalArn) that IAM can be asked about: a 12-digit account, a known partition. */
export function parseArn(arn: string): ParsedArn {
  const principal = parsePrincipalArn(arn);
  if (!/^\d{12}$/.test(principal.accountId)) throw new InvalidRequest(`ARN "${arn}" has no valid account id`);
  return {
    partition: partitionFromName(principal.partition),
    accountId: principal.accountId,
    type: principal.type,
    name: principal.friendlyName,
  };
}
