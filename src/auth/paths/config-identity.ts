import { noContent, ok } from '../../core/framework/response.js';
import { operation, route, type Route } from '../../core/framework/routing-table.js';
import type { AuthContext } from '../context/auth-context.js';
import {
  applyIdentityConfigFields,
  identityConfigDocument,
  identityConfigFields,
  readIdentityConfig,
} from '../config/identity-config.js';
import { pathPattern } from './pattern.js';

export function configIdentityRoutes(context: AuthContext): Route[] {
  return [
    route({
      pattern: pathPattern('config/identity'),
      summary: 'How logins name their identity alias and which metadata they attach, per login type.',
      operations: {
        read: async () => ok(await readIdentityConfig(context)),
        write: operation(identityConfigFields, async ({ fields }) => {
          await context.update(identityConfigDocument, (current) => applyIdentityConfigFields(current, fields));
          return noContent();
        }),
      },
    }),
  ];
}
