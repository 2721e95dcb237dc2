import type { Route } from '../../core/framework/routing-table.js';
import type { AuthContext } from '../context/auth-context.js';
import { accessListRoutes } from './accesslist.js';
import { certificateRoutes } from './certificates.js';
import { configClientRoutes } from './config-client.js';
import { configIdentityRoutes } from './config-identity.js';
import { denyListRoutes } from './denylist.js';
import { deprecatedAliases } from './deprecated-aliases.js';
import { loginRoutes } from './login.js';
import { roleTagRoutes } from './role-tag.js';
import { roleRoutes } from './roles.js';
import { stsRoutes } from './sts.js';
import { tidyRoutes } from './tidy.js';

/** One area of the auth method's path table; add an area by appending its function to AREAS. */
export type RouteArea = (context: AuthContext) => Route[];

// Login first: the router tries each route's pattern in order, and logins are by far the most frequent request (its
// pattern is the exact path `login`, so no other path can match it).
export const AREAS: readonly RouteArea[] = [
  loginRoutes,
  configClientRoutes,
  configIdentityRoutes,
  certificateRoutes,
  stsRoutes,
  roleRoutes,
  roleTagRoutes,
  denyListRoutes,
  accessListRoutes,
  tidyRoutes,
];

/** The whole path table: every area's routes, then the deprecated spellings of the access- and deny-list paths. */
export function authRoutes(context: AuthContext, areas: readonly RouteArea[] = AREAS): Route[] {
  const routes = areas.flatMap((area) => area(context));
  return [...routes, ...deprecatedAliases(routes)];
}
