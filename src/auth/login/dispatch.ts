import { InvalidRequest } from '../../lib/errors.js';
import type { AuthGrant } from '../../core/framework/request.js';
import type { AuthContext } from '../context/auth-context.js';
import { ec2Login, type Ec2LoginFields } from './ec2/ec2.js';
import { iamLogin, type IamLoginRequestFields } from './iam/iam.js';

export type LoginFields = Ec2LoginFields & IamLoginRequestFields;

export interface LoginInput {
  fields: LoginFields;
  /** Whether the body carried the field at all, even empty: the login type is chosen by presence. */
  has: (field: keyof LoginFields) => boolean;
  remoteAddress: string | undefined;
}

const EC2_FIELDS = ['pkcs7', 'identity', 'signature'] as const;
const IAM_FIELDS = ['iam_http_request_method', 'iam_request_url', 'iam_request_body', 'iam_request_headers'] as const;

/**
 * Chooses the login type from the fields supplied, with Vault's messages. A refusal of the fields is
 * thrown at once; not async, because an async layer that hands on the login's promise costs every login several
 * microtask turns (its callers are async or answer a throw).
 */
export function login(context: AuthContext, input: LoginInput): Promise<AuthGrant> {
  const { has } = input;
  const someEc2 = EC2_FIELDS.some(has);
  const allEc2 = has('pkcs7') || (has('identity') && has('signature'));
  const someIam = IAM_FIELDS.some(has);
  const allIam =
    has('iam_http_request_method') &&
    has('iam_request_url') &&
    has('iam_request_headers') &&
    (input.fields.iam_http_request_method === 'GET' || has('iam_request_body'));

  if (someEc2 && someIam) throw new InvalidRequest('supplied auth values for both ec2 and iam auth types');
  if (someEc2) {
    if (!allEc2) throw new InvalidRequest('supplied some of the auth values for the ec2 auth type but not all');
    return ec2Login(context, input.fields, input.remoteAddress);
  }
  if (someIam) {
    if (!allIam) throw new InvalidRequest('supplied some of the auth values for the iam auth type but not all');
    return iamLogin(context, input.fields, input.remoteAddress);
  }
  throw new InvalidRequest("didn't supply required authentication values");
}
