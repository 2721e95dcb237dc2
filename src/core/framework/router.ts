import {
  InvalidRequest,
  NotFound,
  PermissionDenied,
  UnsupportedMediaType,
  UnsupportedOperation,
} from '../../lib/errors.js';
import { ignoredFieldsWarning, replacedFieldsWarning } from './field-help.js';
import { isPlainObject } from './fields.js';
import { validatePath } from './path.js';
import { reportInternalError } from './request-for-log.js';
import { checkRequestShape } from './request-shape.js';
import type { Capability, EngineRequest, EngineResponse, HttpMethod } from './request.js';
import { headerValue } from './request.js';
import { ok, responseForError } from './response.js';
import { declaredFields, readFields, type Operation, type OperationDef, type Route } from './routing-table.js';

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

/** The request fields an operation knows. */
interface KnownFields {
  has(name: string): boolean;
}

/** A request matched to its route and operation. */
interface Target {
  request: EngineRequest;
  path: string;
  params: Record<string, string>;
  compiled: CompiledRoute;
  operation: Operation;
  operationDef: OperationDef<unknown>;
}

interface CompiledRoute {
  route: Route;
  regex: RegExp;
  /** Per operation, the request fields it knows: its declared fields and the path's parameters. */
  known: Partial<Record<Operation, KnownFields>>;
}

/** The known fields of a route that takes arbitrary input: every name. */
const EVERY_FIELD: KnownFields = { has: () => true };

function compile(route: Route): CompiledRoute {
  const regex = compilePattern(route.pattern);
  const params = [...regex.source.matchAll(/\(\?<(\w+)>/g)].map((group) => group[1] as string);
  const known: CompiledRoute['known'] = {};
  for (const [operation, definition] of Object.entries(route.operations) as [
    Operation,
    Route['operations'][Operation],
  ][]) {
    const fields = (typeof definition === 'object' ? definition.fields : undefined) ?? route.fields;
    known[operation] = route.takesArbitraryInput
      ? EVERY_FIELD
      : new Set([...declaredFields(fields).map(([name]) => name), ...params]);
  }
  return { route, regex, known };
}

/**
 * A success answers Vault's warning too; a 204 becomes a 200 with `data: null` to carry it. Errors and 404s do not:
 * Vault shows no warnings there.
 */
/** The path parameters the input also names. */
function pick(params: Readonly<Record<string, string>>, input: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter(([name]) => Object.hasOwn(input, name)));
}

function withWarnings(response: EngineResponse, warnings: readonly string[]): EngineResponse {
  if (response.status === 204) return ok(null, [...warnings]);
  const { status, body } = response;
  if (status >= 300 || !body || body.errors) return response;
  return { ...response, body: { ...body, warnings: [...(body.warnings ?? []), ...warnings] } };
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
  if (!(method in OPERATION_OF_METHOD))
    throw new UnsupportedOperation(`unsupported method ${JSON.stringify(request.method)}`);
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
  private readonly fixed = new Map<string, { compiled: CompiledRoute; params: Record<string, string> }>();

  constructor(
    routes: readonly Route[],
    private readonly options: DispatcherOptions = {},
  ) {
    this.routes = routes.map(compile);
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
    if (response.status >= 500) reportInternalError(this.options.onInternalError, error, request);
    return response;
  }

  /** Throws the refusals it finds before the handler runs (handle() answers them); otherwise the handler's promise. */
  private dispatch(request: EngineRequest): Promise<EngineResponse> {
    checkRequestShape(request);
    const method = normaliseMethod(request);
    if (typeof request.path !== 'string') throw new InvalidRequest('the request path must be a string');
    const fixed = this.fixed.get(request.path);
    if (!fixed) validatePath(request.path);
    const path =
      (method === 'LIST' || method === 'SCAN') && request.path !== '' && !request.path.endsWith('/')
        ? `${request.path}/`
        : request.path;
    const operation = OPERATION_OF_METHOD[method];

    // A LIST or SCAN may have gained a '/': the table answers only for the path as it is looked up.
    const matched =
      fixed && path === request.path ? { compiled: fixed.compiled, params: { ...fixed.params } } : this.match(path);
    if (!matched) throw new NotFound(`unsupported path ${JSON.stringify(path)}`);
    const { compiled, params } = matched;
    const { route } = compiled;
    const definition = route.operations[operation];
    if (!definition) throw new UnsupportedOperation(`${method} is not supported on ${JSON.stringify(path)}`);
    const operationDef =
      typeof definition === 'function' ? ({ handler: definition } as OperationDef<unknown>) : definition;
    const target: Target = { request, path, params, compiled, operation, operationDef };

    // The capability (and so the existence check, a storage read) only matters when there is someone to ask.
    const authorize = request.authorize;
    if (authorize && !route.unauthenticated) {
      return this.authorized(target, authorize).then(({ capability, exists }) => this.run(target, capability, exists));
    }
    return this.run(target, undefined, undefined);
  }

  private async authorized(
    { request, path, params, compiled: { route }, operation, operationDef }: Target,
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
      // Only `true` grants: a JavaScript callback answering "false", 1 or an object must fail closed.
      if ((await authorize({ capability: needed, path: authorized })) !== true) throw new PermissionDenied();
    }
    return { capability, exists };
  }

  /** The media type and field checks, then the handler, and Vault's warning for the fields the operation does not know. */
  private run(
    { request, path, params, compiled, operation, operationDef }: Target,
    capability: Capability | undefined,
    exists: boolean | undefined,
  ): Promise<EngineResponse> {
    const { handler, fields: opFields, mediaTypes, handlerReadsFields } = operationDef;
    if (operation === 'patch' && mediaTypes) {
      const type = mediaTypeOf(request);
      if (!type || !mediaTypes.includes(type)) {
        throw new UnsupportedMediaType(
          `PATCH requires Content-Type of ${mediaTypes.join(' or ')}, provided ${type ?? 'none'}`,
        );
      }
    }

    const given =
      operation === 'write' || operation === 'patch' ? bodyInput(request.body) : queryInput(request.query, operation);
    const replaced = replacedFieldsWarning(given, params);
    // As in Vault, what the path captured wins over a field of the same name.
    const input = replaced.length > 0 ? { ...given, ...pick(params, given) } : given;
    const schema = opFields ?? compiled.route.fields;
    const fields = schema && !handlerReadsFields ? readFields(schema, input) : {};
    const ignored = ignoredFieldsWarning(input, compiled.known[operation] as KnownFields);
    const warnings = replaced.length > 0 ? [...ignored, ...replaced] : ignored;

    const answer = handler({
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
    // Chained only when there is a warning: every other request keeps the handler's own promise.
    return warnings.length === 0 ? answer : answer.then((response) => withWarnings(response, warnings));
  }

  private match(path: string): { compiled: CompiledRoute; params: Record<string, string> } | undefined {
    for (const compiled of this.routes) {
      const found = compiled.regex.exec(path);
      // Each match makes its own groups object: it is the route's params as it is, not a copy.
      if (found) return { compiled, params: found.groups ?? {} };
    }
    return undefined;
  }
}

/** The methods that reach an operation (besides GET with `list=true` or `scan=true`), for the tables of docs/. */
export function methodsOf(operation: Operation): HttpMethod[] {
  return (Object.keys(OPERATION_OF_METHOD) as HttpMethod[]).filter(
    (method) => OPERATION_OF_METHOD[method] === operation,
  );
}

/**
 * The capabilities an operation of a route asks `authorize` for (besides its `alsoRequires`): none on an
 * unauthenticated route, and `create` or `update` for a write where the route's existence check tells them apart.
 */
export function capabilitiesOf(route: Route, operation: Operation): Capability[] {
  if (route.unauthenticated) return [];
  if (operation !== 'write') return [FIXED_CAPABILITY[operation]];
  return route.exists ? ['create', 'update'] : ['update'];
}
