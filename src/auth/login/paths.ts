import { z } from 'zod';
import { str } from '../../core/fields.js';
import { granted } from '../../core/response.js';
import { route, type Route } from '../../core/router.js';
import type { AuthContext } from '../auth-context.js';
import { pathPattern } from '../paths/pattern.js';
import { login } from './dispatch.js';

// Generous caps: the verification primitives apply the precise limits with their own messages.
const document = () => str({ maxLength: 128 * 1024 }).optional();

/** The login body. The iam fields are decoded and validated by decodeIamRequest, which accepts their several encodings. */
export const loginFields = z.object({
  role: str({ maxLength: 512 }).optional(),
  pkcs7: document(),
  identity: document(),
  signature: document(),
  nonce: str({ maxLength: 4096 }).optional(),
  iam_http_request_method: z.unknown().optional(),
  iam_request_url: z.unknown().optional(),
  iam_request_body: z.unknown().optional(),
  iam_request_headers: z.unknown().optional(),
});

/** `POST login`: needs no capability (it is how callers get one) and answers `200 {auth: AuthGrant}`. */
export function loginRoutes(context: AuthContext): Route[] {
  return [
    route({
      pattern: pathPattern('login'),
      fields: loginFields,
      unauthenticated: true,
      operations: {
        write: async ({ fields, has, request }) =>
          granted(await login(context, { fields, has, remoteAddress: request.remoteAddress })),
      },
    }),
  ];
}
