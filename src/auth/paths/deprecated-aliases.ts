import type { Route } from '../../core/routing-table.js';

// Release 1.7 of the reference renamed these words in its paths; the old spellings keep working unchanged.
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
 * One alias row per route whose pattern names the access list or the deny list, with the deprecated word. The alias
 * is authorised as the current path: a deny on `identity-accesslist/*` covers `identity-whitelist/*` as well.
 */
export function deprecatedAliases(routes: readonly Route[]): Route[] {
  return routes.flatMap((route) => {
    const source = typeof route.pattern === 'string' ? route.pattern : route.pattern.source;
    const alias = renamed(source);
    if (alias === source) return [];
    return [
      {
        ...route,
        pattern: typeof route.pattern === 'string' ? alias : new RegExp(alias, route.pattern.flags),
        authorizePath: currentPath(source),
      },
    ];
  });
}
