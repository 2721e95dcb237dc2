import { accepted, ok } from '../../core/framework/response.js';
import { operation, route, type Route } from '../../core/framework/routing-table.js';
import type { AuthContext } from '../context/auth-context.js';
import {
  applyTidyConfigFields,
  DEFAULT_SAFETY_BUFFER,
  TIDY_KINDS,
  tidyConfigDocuments,
  tidyConfigFields,
  type TidyConfig,
  type TidyKind,
} from '../config/tidy-config.js';
import { startTidy, tidyFields } from '../lists/tidy.js';
import { documentRoute } from './document-route.js';
import { pathPattern } from './pattern.js';

const STARTED =
  "Tidy operation successfully started. Any information from the operation will be reported through the engine's onInternalError hook.";
const ALREADY_RUNNING = 'Tidy operation already in progress.';
const LIST_NAME: Readonly<Record<TidyKind, string>> = {
  'identity-accesslist': 'access list',
  'roletag-denylist': 'role tag deny list',
};

function tidyRoutesFor(context: AuthContext, kind: TidyKind): Route[] {
  return [
    documentRoute(context, {
      pattern: `config/tidy/${kind}`,
      summary: `How tidy treats the ${LIST_NAME[kind]}.`,
      document: () => tidyConfigDocuments.named(kind),
      fields: tidyConfigFields,
      view: (config: TidyConfig) => ({
        safety_buffer: config.safety_buffer,
        disable_periodic_tidy: config.disable_periodic_tidy,
      }),
      apply: applyTidyConfigFields,
    }),
    route({
      pattern: pathPattern(`tidy/${kind}`),
      summary: `Starts removing the expired entries of the ${LIST_NAME[kind]} in the background.`,
      operations: {
        write: operation(tidyFields, async ({ fields, request }) => {
          const started = startTidy(context, kind, fields.safety_buffer ?? DEFAULT_SAFETY_BUFFER, (error) =>
            context.reportInternalError(error, request),
          );
          return started ? accepted(undefined, [STARTED]) : ok(null, [ALREADY_RUNNING]);
        }),
      },
    }),
  ];
}

export function tidyRoutes(context: AuthContext): Route[] {
  return TIDY_KINDS.flatMap((kind) => tidyRoutesFor(context, kind));
}
