import { InvalidRequest } from '../../lib/errors.js';
import type { FieldHelp } from '../../core/framework/field-help.js';
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

const HELP: Readonly<Record<keyof LoginFields, FieldHelp>> = {
  role: {
    type: 'string',
    description:
      "The role to log in against, any casing. Empty or absent: the role named after the document's `imageId` (ec2) or the principal's friendly name (iam).",
  },
  pkcs7: {
    type: 'string',
    description:
      'ec2: the base64 PKCS#7 of the `rsa2048` document (RSA-SHA256), or of the DSA-SHA1 `pkcs7` document when the engine option `allowSha1Signatures` is on. Line breaks and PEM armour are accepted.',
  },
  identity: { type: 'string', description: "ec2: the base64 identity document (the metadata service's `document`)." },
  signature: {
    type: 'string',
    description: "ec2: the base64 RSA-SHA256 signature of `identity` (the metadata service's `signature`).",
  },
  nonce: {
    type: 'string',
    description: 'ec2: see "Nonce and replay protection". At most 4096 characters on the wire; at most 128 are stored.',
  },
  iam_http_request_method: {
    type: 'string',
    description: 'iam: the method of the signed `sts:GetCallerIdentity` request (`POST`).',
  },
  iam_request_url: { type: 'string', description: 'iam: the base64 URL of the signed request.' },
  iam_request_body: { type: 'string', description: 'iam: the base64 body of the signed request.' },
  iam_request_headers: {
    type: 'object or string',
    description:
      'iam: the headers of the signed request: an object, a JSON string, base64 of one, or a list of `Name: Value` strings (values: a string, a number, or an array of them).',
  },
};

/**
 * The login body, read by hand: every ec2 login passes here before its signature is checked, and a zod object of these
 * nine fields cost more than the rest of the routing. The messages are those of the `str` fields it replaced, every
 * bad field named in the order above. Other fields are ignored, with Vault's warning.
 */
export const loginFields: FieldReader<LoginFields> = {
  fields: HELP,
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
      summary: 'Logs in with an ec2 identity document or a signed iam request and answers the grant.',
      fields: loginFields,
      unauthenticated: true,
      operations: {
        // Chained rather than awaited: a refused login (the common failure) then reaches the router without a rethrow.
        write: ({ fields, has, request }) =>
          login(context, { fields, has, remoteAddress: request.remoteAddress }).then((grant) => granted(grant)),
      },
    }),
  ];
}
