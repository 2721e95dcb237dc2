import { listResponse } from '../../core/framework/response.js';
import { route, type Route } from '../../core/framework/routing-table.js';
import type { AuthContext } from '../context/auth-context.js';
import { applyStsConfigFields, stsConfigDocuments, stsConfigFields, type StsConfig } from '../config/sts-config.js';
import { documentRoute } from './document-route.js';
import { pathPattern } from './pattern.js';

export function stsRoutes(context: AuthContext): Route[] {
  return [
    documentRoute(context, {
      pattern: 'config/sts/:account_id',
      summary: "The role to assume for calls on another account's resources.",
      document: (params) => stsConfigDocuments.named(params.account_id!),
      fields: stsConfigFields,
      view: (config: StsConfig) => ({ ...config }),
      apply: applyStsConfigFields,
    }),
    route({
      pattern: pathPattern('config/sts/'),
      summary: 'The accounts with an STS role.',
      operations: {
        list: async () => listResponse(await context.list(stsConfigDocuments)),
      },
    }),
  ];
}
