// sys/audit: the audit devices, listed, enabled and disabled as in Vault, and the hash each writes for a value.
import { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import { str } from '../../core/framework/fields.js';
import type { AuditLog } from '../audit/audit-log.js';
import { fields, withPutAsPost, type Route } from '../dispatch/route.js';
import { noContent, ok } from '../http/wire.js';

const auditHashSchema = z.object({ input: str() });

export function auditRoutes(audit: AuditLog): Route[] {
  const routes: Route[] = [
    // Vault's root-protected paths: sys/audit names the files, so listing needs sudo as well as read.
    {
      pattern: /^sys\/audit$/,
      sudo: true,
      methods: { GET: async ({ requestId }) => ok(requestId, await audit.devices()) },
    },
    {
      pattern: /^sys\/audit\/(?<path>.+)$/,
      sudo: true,
      methods: {
        POST: async ({ params, request }) => {
          await audit.enable(params.path!, request.body);
          return noContent;
        },
        DELETE: async ({ params }) => {
          await audit.disable(params.path!);
          return noContent;
        },
      },
    },
    {
      pattern: /^sys\/audit-hash\/(?<path>.+)$/,
      methods: {
        POST: async ({ params, request, requestId }) => {
          const { input } = fields(auditHashSchema, request.body);
          if (input === '') throw new InvalidRequest('the "input" parameter is empty');
          return ok(requestId, { hash: await audit.hash(params.path!, input) });
        },
      },
    },
  ];
  return routes.map(withPutAsPost);
}
