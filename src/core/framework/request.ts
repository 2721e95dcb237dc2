/** The transport-neutral request model shared by both engines: what a transport hands `handle()` and gets back. */

/** `scan` (a recursive listing) is asked only by SCAN requests; see the Acl for how policies that predate it grant it. */
export type Capability = 'create' | 'read' | 'update' | 'patch' | 'delete' | 'list' | 'scan';

/**
 * The methods an engine takes: HTTP's, Vault's LIST, and SCAN (a recursive listing). GET with `list=true` or
 * `scan=true` in the query counts as LIST or SCAN.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'LIST' | 'SCAN';

/** One question to an `authorize` callback: may the caller use `capability` on `path`? */
export interface CapabilityCheck {
  capability: Capability;
  /** The mount-relative path as written; a LIST path always ends in '/'. */
  path: string;
  /**
   * Set when the check is asked about a name a listing would show (the listing's `list` or `scan` on the name's own
   * path, after the listing itself was allowed): the question is then only whether the name is denied, since the
   * folder's grant covers its names, as in Vault (the Acl's `shows`). An authorizer that ignores this field answers
   * the stricter question, which is safe: it can only hide more names.
   */
  listing?: true;
}

/**
 * An `authorize` callback that can also answer many checks in one call (the Acl's `authorizer` is one). Listings that
 * show only what the caller may read use `many` when it is there, and otherwise ask once per name.
 */
export interface BulkAuthorizer {
  (check: CapabilityCheck): boolean | Promise<boolean>;
  /** Answers every check at once, in the order of `checks`. */
  many(checks: readonly CapabilityCheck[]): boolean[] | Promise<boolean[]>;
}

/**
 * Who sends a request, as Vault's request carries it, for what an engine records of its callers (KV's `created_by`
 * and `deleted_by`).
 */
export interface RequestActor {
  /** The token's display name: `root`, `token`, `aws-<role>`. */
  display_name: string;
  /** The caller's identity entity; '' when it has none. */
  entity_id: string;
  /** Vault's client id: the entity id, or for a token without one a hash of its sorted policies and namespace. */
  client_id: string;
}

/**
 * One request to an engine's `handle()`: what a transport parsed from HTTP, or what a service builds itself to call
 * an engine in process.
 */
export interface EngineRequest {
  method: HttpMethod;
  /** Relative to the mount (`data/app/db`, `role/web`, `login`), never starting with '/'. */
  path: string;
  /** GET ...?version=2, ?list=true (GET + list=true means LIST, GET + scan=true means SCAN). */
  query?: Record<string, string | string[]>;
  /** The parsed JSON body. */
  body?: unknown;
  /** Header names are case-insensitive. */
  headers?: Record<string, string | string[] | undefined>;
  /** The caller's IP, for token_bound_cidrs. */
  remoteAddress?: string;
  /**
   * Asked, before anything changes, for each capability the request needs (the Acl's `authorizer()` is one). Only
   * `true` grants; anything else answers 403. Without it every request is allowed.
   */
  authorize?: (check: CapabilityCheck) => boolean | Promise<boolean>;
  /**
   * Who is asking, asked only by a change that records it, after `authorize` (a transport looks the caller up once
   * per request). Absent, or answering undefined: the caller is unknown, and nothing is recorded of it.
   */
  actor?: () => Promise<RequestActor | undefined>;
}

/** What `handle()` resolves to, for failures too: the HTTP status and the JSON body (none for a 204). */
export interface EngineResponse {
  status: number;
  body?: ResponseBody;
}

/**
 * The body of a success (and of the 404s that carry data). `errors` is declared absent so that reading `data`, `auth`
 * or `errors` on any ResponseBody type-checks, and a test of one of them narrows the union.
 */
export interface SuccessBody {
  data?: unknown;
  warnings?: string[];
  /**
   * Seconds the caller may keep the answer before reading it again (Vault's `lease_duration`, with no lease behind
   * it): a KV version 1 read sets it; absent means 0.
   */
  lease_duration?: number;
  /** Set by a successful login or renewal. */
  auth?: AuthGrant;
  errors?: undefined;
}

/** The body of a failure: `{"errors": [...]}`, as Vault answers; a 404 without data carries an empty list. */
export interface ErrorBody {
  errors: string[];
  data?: undefined;
  warnings?: undefined;
  auth?: undefined;
}

/** Any response body: a success (`data`, `warnings`, `auth`) or a failure (`errors`). */
export type ResponseBody = SuccessBody | ErrorBody;

/**
 * What a successful login yields; the caller mints a token from it and hands it back to `renew()` later. Durations
 * (`ttl`, `max_ttl`, `period`, `explicit_max_ttl`) are whole seconds.
 */
export interface AuthGrant {
  policies: string[];
  metadata: Record<string, string>;
  alias: { name: string; metadata: Record<string, string> };
  display_name?: string;
  ttl: number;
  max_ttl: number;
  period: number;
  explicit_max_ttl: number;
  num_uses: number;
  no_default_policy: boolean;
  token_type: string;
  bound_cidrs: string[];
  renewable: boolean;
  /** Opaque to the caller; needed by renew(). */
  internal_data: Record<string, unknown>;
}

/** Reads a header case-insensitively; a repeated header yields its first value. */
export function headerValue(request: Pick<EngineRequest, 'headers'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(request.headers ?? {})) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
