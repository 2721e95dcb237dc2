// Vault's token roles (auth/token/roles/<name>): create or update, read, delete, and list. Tokens are made against a
// role at auth/token/create/<name> (token-routes.ts). As in Vault, the roles are guarded by the ACL alone, no `sudo`:
// writing one is what a policy on auth/token/roles/* grants.
import { fields, withPutAsPost, type Route } from '../dispatch/route.js';
import { envelope, noContent, ok, type ApiResult } from '../http/wire.js';
import { ignoredFieldsWarning } from '../../core/framework/field-help.js';
import { newRole, ROLE_NAME_SOURCE, type TokenRoleStore } from '../tokens/token-role.js';
import { roleFields, roleView, writeRole } from '../tokens/token-role-write.js';

const notFound: ApiResult = { status: 404, body: { errors: [] } };

export function tokenRoleRoutes(roles: TokenRoleStore): Route[] {
  const schema = roleFields();
  const known = new Set(Object.keys(schema.shape));
  const list = async ({ requestId }: { requestId: string }): Promise<ApiResult> => {
    const keys = await roles.names();
    // Vault answers an empty listing with 404, which hvac's list_roles reports as InvalidPath.
    return keys.length === 0 ? notFound : ok(requestId, { keys });
  };
  const routes: Route[] = [
    { pattern: /^auth\/token\/roles\/?$/, methods: { LIST: list } },
    {
      pattern: new RegExp(`^auth/token/roles/(?<name>${ROLE_NAME_SOURCE})$`),
      exists: async ({ name }) => (await roles.get(name!)) !== undefined,
      methods: {
        GET: async ({ params, requestId }) => {
          const role = await roles.get(params.name!);
          return role ? ok(requestId, roleView(role)) : notFound;
        },
        POST: async ({ params, request, requestId }) => {
          const name = params.name!;
          const input = fields(schema, request.body);
          const { role, warnings } = writeRole((await roles.get(name)) ?? newRole(name), input);
          await roles.put(role);
          const notes = [...ignoredFieldsWarning(request.body, known), ...warnings];
          return notes.length > 0 ? { status: 200, body: envelope(requestId, { warnings: notes }) } : noContent;
        },
        DELETE: async ({ params }) => {
          await roles.delete(params.name!);
          return noContent;
        },
      },
    },
  ];
  return routes.map(withPutAsPost);
}
