import type { Route } from '../../core/router.js';

// Release 1.7 of the reference renamed these words in its paths; the old spellings keep working unchanged.
const RENAMES: readonly (readonly [RegExp, string])[] = [
  [/access-?list/g, 'whitelist'],
  [/deny-?list/g, 'blacklist'],
];

function renamed(source: string): string {
  return RENAMES.reduce((text, [current, deprecated]) => text.replace(current, deprecated), source);
}

/** One alias row per route whose pattern names the access list or the deny list, with the deprecated word. */
export function deprecatedAliases(routes: readonly Route[]): Route[] {
  return routes.flatMap((route) => {
    const source = typeof route.pattern === 'string' ? route.pattern : route.pattern.source;
    const alias = renamed(source);
    if (alias === source) return [];
    return [{ ...route, pattern: typeof route.pattern === 'string' ? alias : new RegExp(alias, route.pattern.flags) }];
  });
}
