import { listResponse, noContent, notFound, ok, okOrNoContent } from '../../core/framework/response.js';
import { operation, route, type Route } from '../../core/framework/routing-table.js';
import type { AuthContext } from '../context/auth-context.js';
import { resolvePrincipalIds } from '../roles/principal-ids.js';
import { listRoleNames, readRole, roleDocument, roleView } from '../roles/role.js';
import { applyRoleFields, roleFields } from '../roles/role-write.js';
import { pathPattern } from './pattern.js';

export function roleRoutes(context: AuthContext): Route[] {
  const list = async () => listResponse(await listRoleNames(context));
  return [
    route({
      pattern: pathPattern('role/:role'),
      summary: 'A role: which instances or principals may log in, and the token they get.',
      exists: ({ params }) => context.has(roleDocument(params.role!)),
      operations: {
        read: async ({ params }) => {
          const role = await readRole(context, params.role!);
          return role ? ok(roleView(role)) : notFound();
        },
        write: operation(roleFields, async ({ params, fields }) => {
          let warnings: string[] = [];
          await context.update(roleDocument(params.role!), async (current) => {
            const applied = applyRoleFields(current, fields, context.mountMaxTtl);
            warnings = applied.warnings;
            return resolvePrincipalIds(context, applied.role);
          });
          return okOrNoContent(warnings);
        }),
        delete: async ({ params }) => {
          await context.delete(roleDocument(params.role!));
          return noContent();
        },
      },
    }),
    route({ pattern: pathPattern('role/'), summary: 'The names of the roles.', operations: { list } }),
    route({ pattern: pathPattern('roles/'), summary: 'The names of the roles (as `role/`).', operations: { list } }),
  ];
}
