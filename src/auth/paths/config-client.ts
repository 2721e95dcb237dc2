import { ok } from '../../core/response.js';
import { route, type Route } from '../../core/routing-table.js';
import type { AuthContext } from '../context/auth-context.js';
import {
  applyClientConfigFields,
  CLIENT_CONFIG_KEY,
  clientConfigFields,
  clientConfigView,
  DEFAULT_CLIENT_CONFIG,
  type ClientConfig,
} from '../config/client-config.js';
import { rotateRoot } from '../config/rotate-root.js';
import { documentRoute } from './document-route.js';
import { pathPattern } from './pattern.js';

export function configClientRoutes(context: AuthContext): Route[] {
  return [
    documentRoute(context, {
      pattern: 'config/client',
      key: () => CLIENT_CONFIG_KEY,
      fields: clientConfigFields,
      view: (config: ClientConfig) => clientConfigView({ ...DEFAULT_CLIENT_CONFIG, ...config }),
      apply: applyClientConfigFields,
    }),
    route({
      pattern: pathPattern('config/rotate-root'),
      operations: {
        write: async () => {
          const rotation = await rotateRoot(context);
          return ok({ access_key: rotation.accessKeyId }, rotation.warnings);
        },
      },
    }),
  ];
}
