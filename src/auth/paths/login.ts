import { InvalidRequest } from '../../lib/errors.js';
import { describeFieldProblem, textField } from '../../core/framework/fields.js';
import { granted } from '../../core/framework/response.js';
import { route, type FieldReader, type Route } from '../../core/framework/routing-table.js';
import type { AuthContext } from '../context/auth-context.js';
import { login, type LoginFields } from '../login/dispatch.js';
import { pathPattern } from './pattern.js';

// Generous caps: the verification primitives apply the precise limits with their own messages.
const DOCUMENT_MAX_LENGTH = 128 * 1024;
const TEXT_FIELDS = [
  ['role', 512],
  ['pkcs7', DOCUMENT_MAX_LENGTH],
  ['identity', DOCUMENT_MAX_LENGTH],
  ['signature', DOCUMENT_MAX_LENGTH],
  ['nonce', 4096],
] as const;
/** Decoded and validated by decodeIamRequest, which accepts their several encodings. */
const IAM_FIELDS = ['iam_http_request_method', 'iam_request_url', 'iam_request_body', 'iam_request_headers'] as const;

/**
 * The login body, read by hand: every ec2 login passes here before its signature is checked, and a zod object of these
 * nine fields cost more than the rest of the routing. The messages are those of the `str` fields it replaced, every
 * bad field named in the order above. Other fields are ignored.
 */
export const loginFields: FieldReader<LoginFields> = {
  read(input) {
    const fields: LoginFields = {};
    let problems: string[] | undefined;
    for (const [name, maxLength] of TEXT_FIELDS) {
      const value = input[name];
      if (value === undefined) continue;
      const text = textField(value, maxLength);
      if (typeof text === 'string') fields[name] = text;
      else (problems ??= []).push(describeFieldProblem(name, text.message));
    }
    if (problems) throw new InvalidRequest(problems.join('; '));
    for (const name of IAM_FIELDS) if (input[name] !== undefined) fields[name] = input[name];
    return fields;
  },
};

/** `POST login`: needs no capability (it is how callers get one) and answers `200 {auth: AuthGrant}`. */
export function loginRoutes(context: AuthContext): Route[] {
  return [
    route({
      pattern: pathPattern('login'),
      fields: loginFields,
      unauthenticated: true,
      operations: {
        // Chained rather than awaited: a refused login (the common failure) then reaches the router without a rethrow.
        write: ({ fields, has, request }) => login(context, { fields, has, remoteAddress: request.remoteAddress }).then((grant) => granted(grant)),
      },
    }),
  ];
}
