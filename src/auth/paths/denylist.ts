import { InvalidRequest } from '../../lib/errors.js';
import { listResponse, noContent, notFound, ok } from '../../core/framework/response.js';
import { route, type Route } from '../../core/framework/routing-table.js';
import type { AuthContext } from '../context/auth-context.js';
import {
  deleteDenyListEntry,
  denyRoleTag,
  listDeniedRoleTags,
  readDenyListEntry,
  roleTagForLookup,
  roleTagFromPath,
} from '../lists/denylist.js';
import { parseRoleTag, verifyRoleTag } from '../roles/role-tag.js';
import { readRole } from '../roles/role.js';
import { pathPattern } from './pattern.js';

export function denyListRoutes(context: AuthContext): Route[] {
  return [
    route({
      pattern: pathPattern('roletag-denylist/:role_tag+'),
      summary: 'A denied role tag: logins presenting it are refused.',
      operations: {
        write: async ({ params }) => {
          const tag = parseRoleTag(roleTagFromPath(params.role_tag!));
          const role = await readRole(context, tag.role);
          if (!role) throw new InvalidRequest(`entry not found for ${JSON.stringify(tag.role)}`);
          if (!verifyRoleTag(tag, role.hmac_key)) throw new InvalidRequest('role tag signature verification failed');
          await denyRoleTag(context, tag, role);
          return noContent();
        },
        read: async ({ params }) => {
          const tag = roleTagForLookup(params.role_tag!);
          const entry = tag && (await readDenyListEntry(context, tag));
          return entry
            ? ok({ creation_time: entry.creation_time, expiration_time: entry.expiration_time })
            : notFound();
        },
        delete: async ({ params }) => {
          const tag = roleTagForLookup(params.role_tag!);
          if (tag) await deleteDenyListEntry(context, tag);
          return noContent();
        },
      },
    }),
    route({
      pattern: pathPattern('roletag-denylist/'),
      summary: 'The denied role tags.',
      operations: { list: async () => listResponse(await listDeniedRoleTags(context)) },
    }),
  ];
}
