import { PermissionDenied } from '../../lib/errors.js';
import {
  readFields,
  type Handler,
  type OperationDef,
  type Route,
  type RouteContext,
} from '../../core/framework/routing-table.js';

// Release 1.7 of Vault renamed these words in its paths; the old spellings keep working unchanged.
const RENAMES: readonly (readonly [RegExp, string])[] = [
  [/access-?list/g, 'whitelist'],
  [/deny-?list/g, 'blacklist'],
];

function renamed(source: string): string {
  return RENAMES.reduce((text, [current, deprecated]) => text.replace(current, deprecated), source);
}

/**
 * The request path of an alias spelled as its route's current path (the first deprecated word becomes the current
 * spelling the route's pattern uses), so that a policy on the current path governs the alias too.
 */
function currentPath(source: string): (path: string) => string {
  const replacements = RENAMES.flatMap(([current, deprecated]) => {
    const spelling = source.match(current)?.[0];
    return spelling ? [[deprecated, spelling] as const] : [];
  });
  return (path) => replacements.reduce((text, [deprecated, spelling]) => text.replace(deprecated, spelling), path);
}

/**
 * The operation of an alias row: before the route's own handler, `authorize` is asked about the current path for every
 * capability the router has just checked on the path as written; then the fields are read, which the router leaves to
 * it (while still knowing them, for Vault's warning), so that a caller refused on either name gets a 403, never a
 * verdict on its fields.
 */
function authorizedUnderBothNames(
  route: Route,
  definition: Handler<unknown> | OperationDef<unknown>,
  current: (path: string) => string,
): OperationDef<unknown> {
  const operation = typeof definition === 'function' ? { handler: definition } : definition;
  const schema = operation.fields ?? route.fields;
  const handler = async (context: RouteContext<unknown>) => {
    const { request, capability } = context;
    // The router asked `authorize` only when the request carries one and the route needs a capability.
    if (capability !== undefined && request.authorize) {
      for (const needed of [capability, ...(operation.alsoRequires?.(request) ?? [])]) {
        if ((await request.authorize({ capability: needed, path: current(context.path) })) !== true)
          throw new PermissionDenied();
      }
    }
    return operation.handler({ ...context, fields: schema ? readFields(schema, context.input) : {} });
  };
  return { ...operation, fields: schema, handlerReadsFields: true, handler };
}

/**
 * One alias row per route whose pattern names the access list or the deny list, with the deprecated word. The alias
 * is authorised under both names: the path as written must be granted, as in Vault (which checks the path as
 * written only), and so must the current path, so that a deny on either `identity-whitelist/*` or
 * `identity-accesslist/*` holds for both. `authorize` answers yes or no, so "not granted" and "denied" look alike:
 * a policy opening a deprecated path must grant both spellings.
 */
export function deprecatedAliases(routes: readonly Route[]): Route[] {
  return routes.flatMap((route) => {
    const source = typeof route.pattern === 'string' ? route.pattern : route.pattern.source;
    const alias = renamed(source);
    if (alias === source) return [];
    const current = currentPath(source);
    const operations = Object.fromEntries(
      Object.entries(route.operations).map(([name, definition]) => [
        name,
        authorizedUnderBothNames(route, definition, current),
      ]),
    );
    return [
      {
        ...route,
        pattern: typeof route.pattern === 'string' ? alias : new RegExp(alias, route.pattern.flags),
        fields: undefined,
        operations,
      },
    ];
  });
}
