import { listResponse, noContent, notFound, ok } from '../../core/framework/response.js';
import { route, type Route } from '../../core/framework/routing-table.js';
import type { AuthContext } from '../context/auth-context.js';
import { deleteAccessListEntry, listAccessListInstanceIds, readAccessListEntry } from '../lists/accesslist.js';
import { pathPattern } from './pattern.js';

export function accessListRoutes(context: AuthContext): Route[] {
  return [
    route({
      pattern: pathPattern('identity-accesslist/:instance_id'),
      summary: 'The access-list entry of an instance that logged in with ec2: its nonce and expiry.',
      operations: {
        read: async ({ params }) => {
          const entry = await readAccessListEntry(context, params.instance_id!);
          return entry ? ok({ ...entry }) : notFound();
        },
        delete: async ({ params }) => {
          await deleteAccessListEntry(context, params.instance_id!);
          return noContent();
        },
      },
    }),
    route({
      pattern: pathPattern('identity-accesslist/'),
      summary: 'The instances on the access list.',
      operations: { list: async () => listResponse(await listAccessListInstanceIds(context)) },
    }),
  ];
}
