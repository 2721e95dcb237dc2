// sys/webhooks: signed webhooks on KV changes (strongroom's own; Vault has none). Every path needs sudo, as Vault's
// root-protected paths do: a webhook sends what changes where to a URL its writer chooses.
import { z } from 'zod';
import { stringList } from '../../core/framework/fields.js';
import { fields, withPutAsPost, type Route } from '../dispatch/route.js';
import { noContent, ok } from '../http/wire.js';
import type { Webhooks } from '../webhooks/webhooks.js';

const replaySchema = z.object({ ids: stringList().optional() });

export function webhookRoutes(webhooks: Webhooks): Route[] {
  const routes: Route[] = [
    {
      pattern: /^sys\/webhooks\/?$/,
      sudo: true,
      methods: {
        LIST: async ({ requestId }) => {
          const keys = await webhooks.names();
          // An empty listing is a 404, as Vault answers one.
          return keys.length === 0 ? { status: 404, body: { errors: [] } } : ok(requestId, { keys });
        },
      },
    },
    {
      pattern: /^sys\/webhooks\/(?<name>[^/]+)$/,
      sudo: true,
      exists: ({ name }) => webhooks.exists(name!),
      methods: {
        GET: async ({ params, requestId }) => ok(requestId, await webhooks.read(params.name!)),
        POST: async ({ params, request }) => {
          await webhooks.write(params.name!, request.body);
          return noContent;
        },
        DELETE: async ({ params }) => {
          await webhooks.remove(params.name!);
          return noContent;
        },
      },
    },
    {
      pattern: /^sys\/webhooks\/(?<name>[^/]+)\/dead-letters$/,
      sudo: true,
      methods: {
        GET: async ({ params, requestId }) => ok(requestId, { events: await webhooks.deadLetters(params.name!) }),
      },
    },
    {
      pattern: /^sys\/webhooks\/(?<name>[^/]+)\/replay$/,
      sudo: true,
      methods: {
        POST: async ({ params, request, requestId }) => {
          const { ids } = fields(replaySchema, request.body);
          return ok(requestId, { replayed: await webhooks.replay(params.name!, ids) });
        },
      },
    },
  ];
  return routes.map(withPutAsPost);
}
