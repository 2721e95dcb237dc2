import { ok } from '../../core/framework/response.js';
import { route, type Route } from '../../core/framework/routing-table.js';
import type { AuthContext } from '../context/auth-context.js';
import {
  applyClientConfigFields,
  clientConfigDocument,
  clientConfigFields,
  clientConfigView,
} from '../config/client-config.js';
import { rotateRoot } from '../config/rotate-root.js';
import { documentRoute } from './document-route.js';
import { pathPattern } from './pattern.js';

export function configClientRoutes(context: AuthContext): Route[] {
  return [
    documentRoute(context, {
      pattern: 'config/client',
      summary: 'The credentials and endpoints the method calls the cloud provider with.',
      document: () => clientConfigDocument,
      fields: clientConfigFields,
      view: clientConfigView,
      apply: applyClientConfigFields,
    }),
    route({
      pattern: pathPattern('config/rotate-root'),
      summary: 'Replaces the configured access key with a new one the method creates, then deletes the old key.',
      operations: {
        write: async () => {
          const rotation = await rotateRoot(context);
          return ok({ access_key: rotation.accessKeyId }, rotation.warnings);
        },
      },
    }),
  ];
}
