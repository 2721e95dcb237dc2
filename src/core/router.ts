import { z } from 'zod';
import { InvalidRequest, NotFound, PermissionDenied, UnsupportedMediaType, UnsupportedOperation } from './errors.js';
import { describeFieldError, isPlainObject } from './fields.js';
import { validatePath } from './path.js';
import { requestForLog } from './request-for-log.js';
import { checkRequestShape } from './request-shape.js';
import type { Capability, EngineRequest, EngineResponse, HttpMethod } from './request.js';
import { headerValue } from './request.js';
import { responseForError } from './response.js';

/**
 * A declarative routing table in the spirit of Vault's `sdk/framework.Path`: each route has a pattern, a zod schema
 * for its fields, the operations it supports and an optional existence check that tells create from update.
 */

export type Operation = 'read' | 'list' | 'scan' | 'write' | 'patch' | 'delete';

export interface RouteContext<F> {
  /** The request as the caller sent it. */
  readonly request: EngineRequest;
  /** The normalised path (LIST paths end in '/'). */
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly fields: F;
  /** The raw input (query for read/list/delete, body for write/patch), to tell an absent field from an empty one. */
  readonly input: Readonly<Record<string, unknown>>;
  has(field: string): boolean;
  readonly operation: Operation;
  /** The capability that was checked; undefined when none was (no `authorize` callback, or an unauthenticated route). */
  readonly capability: Capability | undefined;
  /** The existence check's answer, for write operations that were authorised on routes that have one. */
  readonly exists: boolean | undefined;
  header(name: string): string | undefined;
}

export type Handler<F> = (context: RouteContext<F>) => Promise<EngineResponse>;

/**
 * A route's fields read by hand rather than by a zod schema, for a hot path where a schema's generic machinery shows
 * (the login). It answers the fields or throws InvalidRequest worded as `describeFieldError` words a schema's failure.
 */
export interface FieldReader<F = unknown> {
  readonly read: (input: Record<string, unknown>) => F;
}

export type FieldSource = z.ZodType | FieldReader;

/** Reads an input with a route's schema or reader; InvalidRequest naming the bad fields. */
export function readFields(source: FieldSource, input: Record<string, unknown>): unknown {
  if ('read' in source) return source.read(input);
  const parsed = source.safeParse(input);
  if (!parsed.success) throw new InvalidRequest(describeFieldError(parsed.error));
  return parsed.data;
}

export interface OperationDef<F> {
  readonly fields?: z.ZodType;
  readonly handler: Handler<F>;
  /** For PATCH: the accepted Content-Types (parameters such as charset are ignored); others get 415. */
  readonly mediaTypes?: readonly string[];
  /** Capabilities the request needs besides the operation's own, each asked of `authorize` in turn. */
  readonly alsoRequires?: (request: EngineRequest) => readonly Capability[];
}

export interface ExistenceContext {
  readonly request: EngineRequest;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
}

export interface Route {
  readonly pattern: string | RegExp;
  readonly fields?: FieldSource;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each operation carries its own field type
  readonly operations: Partial<Record<Operation, Handler<any> | OperationDef<any>>>;
  /** POST/PUT need `update` when this answers true, `create` when false; without it they need `update`. */
  readonly exists?: (context: ExistenceContext) => Promise<boolean>;
  /** No capability is asked for (the login path). */
  readonly unauthenticated?: boolean;
  /** The path `authorize` is asked about, when it is not the request's own (an alias is authorised as its target). */
  readonly authorizePath?: (path: string) => string;
}

type FieldsOf<S> = S extends z.ZodType ? z.output<S> : S extends FieldReader<infer F> ? F : Record<string, never>;

/** Declares a route whose handlers are typed by its field schema. */
export function route<S extends FieldSource | undefined = undefined>(definition: {
  pattern: string | RegExp;
  fields?: S;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see Route.operations
  operations: Partial<Record<Operation, Handler<FieldsOf<S>> | OperationDef<any>>>;
  exists?: (context: ExistenceContext) => Promise<boolean>;
  unauthenticated?: boolean;
  authorizePath?: (path: string) => string;
}): Route {
  return definition as Route;
}

/** Declares one operation with fields of its own, overriding the route's. */
export function operation<S extends z.ZodType>(
  fields: S,
  handler: Handler<z.output<S>>,
  options: Pick<OperationDef<unknown>, 'mediaTypes' | 'alsoRequires'> = {},
): OperationDef<z.output<S>> {
  return { fields, handler, ...options };
}

const OPERATION_OF_METHOD: Record<HttpMethod, Operation> = {
  GET: 'read',
  LIST: 'list',
  SCAN: 'scan',
  POST: 'write',
  PUT: 'write',
  PATCH: 'patch',
  DELETE: 'delete',
};

const FIXED_CAPABILITY: Record<Exclude<Operation, 'write'>, Capability> = {
  read: 'read',
  list: 'list',
  scan: 'scan',
  patch: 'patch',
  delete: 'delete',
};

/** A request matched to its route and operation. */
interface Target {
  request: EngineRequest;
  path: string;
  params: Record<string, string>;
  route: Route;
  operation: Operation;
  operationDef: OperationDef<unknown>;
}

interface CompiledRoute {
  route: Route;
  regex: RegExp;
}

function compilePattern(pattern: string | RegExp): RegExp {
  if (pattern instanceof RegExp) return pattern;
  const source = pattern
    .split('/')
    .map((segment) => {
      const param = /^:(\w+)([*+]?)$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const [, name, rest] = param;
      if (rest === '*') return `(?<${name}>.*)`;
      if (rest === '+') return `(?<${name}>.+)`;
      return `(?<${name}>[^/]+)`;
    })
    .join('/');
  return new RegExp(`^${source}$`);
}

/** The one path a pattern matches when it is a plain literal (`^login$`, `^config\/client$`); otherwise undefined. */
function literalPath(regex: RegExp): string | undefined {
  if (regex.flags !== '') return undefined;
  const literal = /^\^((?:[\w-]|\\\/)*)\$$/.exec(regex.source)?.[1]?.replaceAll('\\/', '/');
  return literal !== undefined && regex.test(literal) ? literal : undefined;
}

function isValidPath(path: string): boolean {
  try {
    validatePath(path);
    return true;
  } catch {
    return false;
  }
}

function flagRequested(query: EngineRequest['query'], flag: 'list' | 'scan'): boolean {
  const raw = query?.[flag];
  const value: unknown = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === 'string' && ['true', 't', '1'].includes(value.toLowerCase());
}

function normaliseMethod(request: EngineRequest): HttpMethod {
  const method = typeof request.method === 'string' ? request.method.toUpperCase() : '';
  if (!(method in OPERATION_OF_METHOD)) throw new UnsupportedOperation(`unsupported method ${JSON.stringify(request.method)}`);
  if (method === 'GET' && flagRequested(request.query, 'list')) return 'LIST';
  if (method === 'GET' && flagRequested(request.query, 'scan')) return 'SCAN';
  return method as HttpMethod;
}

function queryInput(query: EngineRequest['query'], operation: Operation): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query ?? {})) {
    if (key === operation && (operation === 'list' || operation === 'scan')) continue;
    Object.defineProperty(input, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return input;
}

function bodyInput(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (!isPlainObject(body)) throw new InvalidRequest('the request body must be a JSON object');
  return body;
}

/** The Content-Type without parameters, lower-cased; undefined when absent. */
export function mediaTypeOf(request: Pick<EngineRequest, 'headers'>): string | undefined {
  const raw = headerValue(request, 'content-type');
  if (raw === undefined) return undefined;
  return raw.split(';')[0]?.trim().toLowerCase() || undefined;
}

export interface DispatcherOptions {
  /**
   * Called with every server-side fault (a 5xx answer), for the embedding service's logs, with the request without
   * its body and with credential headers redacted (requestForLog).
   */
  onInternalError?: (error: unknown, request: EngineRequest) => void;
}

/** Routes EngineRequests through a table: path checks, capability, media type, fields, then the handler. */
export class Dispatcher {
  private readonly routes: CompiledRoute[];

  /**
   * The answer of `match` for each path that some route names literally (`login`, `config/client`), worked out once:
   * such a request is then routed by one lookup instead of the path check and a regular expression per route tried,
   * which cost the login a tenth of its time next to its signature check. Only paths that pass validatePath are kept.
   */
  private readonly fixed = new Map<string, { route: Route; params: Record<string, string> }>();

  constructor(
    routes: readonly Route[],
    private readonly options: DispatcherOptions = {},
  ) {
    this.routes = routes.map((route) => ({ route, regex: compilePattern(route.pattern) }));
    for (const { regex } of this.routes) {
      const path = literalPath(regex);
      if (path === undefined || this.fixed.has(path) || !isValidPath(path)) continue;
      const matched = this.match(path);
      if (matched) this.fixed.set(path, matched);
    }
  }

  handle(request: EngineRequest): Promise<EngineResponse> {
    // The dispatch runs synchronously up to the handler when no capability is asked (every login): an async layer
    // here, which only handed the handler's promise on, cost each request several microtask turns. A refusal thrown
    // before the handler is answered here at once; one from the handler by a reaction, without being thrown again.
    let answer: Promise<EngineResponse>;
    try {
      answer = this.dispatch(request);
    } catch (error) {
      return Promise.resolve(this.answerError(error, request));
    }
    return answer.catch((error: unknown) => this.answerError(error, request));
  }

  private answerError(error: unknown, request: EngineRequest): EngineResponse {
    const response = responseForError(error);
    if (response.status >= 500) this.options.onInternalError?.(error, requestForLog(request));
    return response;
  }

  /** Throws the refusals it finds before the handler runs (handle() answers them); otherwise the handler's promise. */
  private dispatch(request: EngineRequest): Promise<EngineResponse> {
    checkRequestShape(request);
    const method = normaliseMethod(request);
    if (typeof request.path !== 'string') throw new InvalidRequest('the request path must be a string');
    const fixed = this.fixed.get(request.path);
    if (!fixed) validatePath(request.path);
    const path = (method === 'LIST' || method === 'SCAN') && request.path !== '' && !request.path.endsWith('/') ? `${request.path}/` : request.path;
    const operation = OPERATION_OF_METHOD[method];

    // A LIST or SCAN may have gained a '/': the table answers only for the path as it is looked up.
    const matched = fixed && path === request.path ? { route: fixed.route, params: { ...fixed.params } } : this.match(path);
    if (!matched) throw new NotFound(`unsupported path ${JSON.stringify(path)}`);
    const { route, params } = matched;
    const definition = route.operations[operation];
    if (!definition) throw new UnsupportedOperation(`${method} is not supported on ${JSON.stringify(path)}`);
    const operationDef = typeof definition === 'function' ? ({ handler: definition } as OperationDef<unknown>) : definition;
    const target: Target = { request, path, params, route, operation, operationDef };

    // The capability (and so the existence check, a storage read) only matters when there is someone to ask.
    const authorize = request.authorize;
    if (authorize && !route.unauthenticated) {
      return this.authorized(target, authorize).then(({ capability, exists }) => this.run(target, capability, exists));
    }
    return this.run(target, undefined, undefined);
  }

  private async authorized(
    { request, path, params, route, operation, operationDef }: Target,
    authorize: NonNullable<EngineRequest['authorize']>,
  ): Promise<{ capability: Capability; exists: boolean | undefined }> {
    let exists: boolean | undefined;
    let capability: Capability;
    if (operation === 'write') {
      exists = route.exists ? await route.exists({ request, path, params }) : undefined;
      capability = exists === false ? 'create' : 'update';
    } else {
      capability = FIXED_CAPABILITY[operation];
    }
    const authorized = route.authorizePath?.(path) ?? path;
    for (const needed of [capability, ...(operationDef.alsoRequires?.(request) ?? [])]) {
      if (!(await authorize({ capability: needed, path: authorized }))) throw new PermissionDenied();
    }
    return { capability, exists };
  }

  /** The media type and field checks, then the handler. */
  private run({ request, path, params, route, operation, operationDef }: Target, capability: Capability | undefined, exists: boolean | undefined): Promise<EngineResponse> {
    const { handler, fields: opFields, mediaTypes } = operationDef;
    if (operation === 'patch' && mediaTypes) {
      const type = mediaTypeOf(request);
      if (!type || !mediaTypes.includes(type)) {
        throw new UnsupportedMediaType(`PATCH requires Content-Type of ${mediaTypes.join(' or ')}, provided ${type ?? 'none'}`);
      }
    }

    const input = operation === 'write' || operation === 'patch' ? bodyInput(request.body) : queryInput(request.query, operation);
    const schema = opFields ?? route.fields;
    const fields = schema ? readFields(schema, input) : {};

    return handler({
      request,
      path,
      params,
      fields,
      input,
      has: (field) => Object.prototype.hasOwnProperty.call(input, field),
      operation,
      capability,
      exists,
      header: (name) => headerValue(request, name),
    });
  }

  private match(path: string): { route: Route; params: Record<string, string> } | undefined {
    for (const { route, regex } of this.routes) {
      const found = regex.exec(path);
      // Each match makes its own groups object: it is the route's params as it is, not a copy.
      if (found) return { route, params: found.groups ?? {} };
    }
    return undefined;
  }
}
