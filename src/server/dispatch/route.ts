// The server's own endpoints are data: a path pattern, the methods it answers, and how to check the caller.
import type { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import { describeFieldError, isPlainObject } from '../../core/framework/fields.js';
import type { ApiMethod, ApiRequest } from '../http/request.js';
import type { ApiResult } from '../http/wire.js';
import type { TokenRecord } from '../tokens/token-record.js';

export interface RouteContext {
  request: ApiRequest;
  requestId: string;
  params: Record<string, string>;
  /** The caller's token entry; absent on unauthenticated routes. */
  caller: TokenRecord | undefined;
}

export type RouteHandler = (context: RouteContext) => Promise<ApiResult>;

export interface Route {
  pattern: RegExp;
  methods: Partial<Record<ApiMethod, RouteHandler>>;
  unauthenticated?: boolean;
  /** Vault's root-protected paths: the caller also needs `sudo` on the path. */
  sudo?: boolean;
  /** Tells create from update, as engines do; without it a write needs `update`. */
  exists?: (params: Record<string, string>) => Promise<boolean>;
  /**
   * The path the ACL is asked about, when it differs from the path as written: a name the handler normalises is
   * normalised here first, so that a policy denying `admin` also denies `ADMIN` and ` admin`.
   */
  aclPath?: (params: Record<string, string>) => string;
}

/**
 * Parses a body with a zod schema of fields; a body that is not an object, or a bad field, is a 400 naming it. A field
 * set to null is one not given, as in Vault: older clients (hvac's create_token) send every field, null when unset.
 */
export function fields<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const input = body === undefined || body === null ? {} : body;
  if (!isPlainObject(input)) throw new InvalidRequest('the request body must be a JSON object');
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null)));
  if (!parsed.success) throw new InvalidRequest(describeFieldError(parsed.error));
  return parsed.data;
}

/** POST and PUT are the same operation everywhere in Vault's API. */
export function withPutAsPost(route: Route): Route {
  const { POST, PUT } = route.methods;
  return POST && !PUT ? { ...route, methods: { ...route.methods, PUT: POST } } : route;
}
