import type { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import { helpOf, type FieldHelp } from './field-help.js';
import { describeFieldError } from './fields.js';
import type { Capability, EngineRequest, EngineResponse } from './request.js';

/**
 * A declarative routing table in the spirit of Vault's `sdk/framework.Path`: each route has a pattern, a one-line
 * summary, a zod schema for its fields (each field described where it is declared), the operations it supports and an
 * optional existence check that tells create from update. A request field the operation does not declare earns Vault's
 * warning (router.ts), and the endpoint tables of docs/ are generated from these rows (scripts/route-docs.ts).
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
  readonly has: (field: string) => boolean;
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
 * (the login). It answers the fields or throws InvalidRequest worded as `describeFieldError` words a schema's failure,
 * and declares the fields it knows, as a schema's shape does.
 */
export interface FieldReader<F = unknown> {
  readonly read: (input: Record<string, unknown>) => F;
  readonly fields: Readonly<Record<string, FieldHelp>>;
}

export type FieldSource = z.ZodObject | FieldReader;

/** The fields a schema or reader declares, by name, with what each says about itself. */
export function declaredFields(source: FieldSource | undefined): [name: string, help: Partial<FieldHelp>][] {
  if (!source) return [];
  if ('read' in source) return Object.entries(source.fields);
  return Object.entries(source.shape).map(([name, field]: [string, z.ZodType]) => [name, helpOf(field)]);
}

/** Reads an input with a route's schema or reader; InvalidRequest naming the bad fields. */
export function readFields(source: z.ZodType | FieldReader, input: Record<string, unknown>): unknown {
  if ('read' in source) return source.read(input);
  const empty = isEmpty(input);
  const known = empty ? emptyReads.get(source) : undefined;
  if (known) return { ...known };
  const parsed = source.safeParse(input);
  if (!parsed.success) throw new InvalidRequest(describeFieldError(parsed.error));
  if (empty && isFlat(parsed.data)) emptyReads.set(source, Object.freeze({ ...parsed.data }));
  return parsed.data;
}

/**
 * What each schema made of an empty input (most reads send no field at all), when it is an object of plain values: a
 * schema's answer depends on its input alone, so the same empty input always reads the same. Answered as a copy, so a
 * handler that changes its fields changes nothing here. A schema that refuses the empty input is asked every time.
 */
const emptyReads = new WeakMap<z.ZodType, Readonly<Record<string, unknown>>>();

function isEmpty(input: Record<string, unknown>): boolean {
  for (const name in input) if (Object.hasOwn(input, name)) return false;
  return true;
}

function isFlat(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every((field) => field === null || typeof field !== 'object');
}

export interface OperationDef<F> {
  readonly fields?: FieldSource;
  /**
   * The handler reads `fields` itself, from `input` (a deprecated alias does, once both its names are authorised): the
   * router leaves them unread, and still counts them as the fields the operation knows.
   */
  readonly handlerReadsFields?: boolean;
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
  /** One line saying what the path is for, for the endpoint tables of docs/. */
  readonly summary?: string;
  /** The path as docs/ write it (`:name` for a parameter), when the pattern is a regular expression that says it poorly. */
  readonly path?: string;
  readonly fields?: FieldSource;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each operation carries its own field type
  readonly operations: Partial<Record<Operation, Handler<any> | OperationDef<any>>>;
  /** POST/PUT need `update` when this answers true, `create` when false; without it they need `update`. */
  readonly exists?: (context: ExistenceContext) => Promise<boolean>;
  /** No capability is asked for (the login path). */
  readonly unauthenticated?: boolean;
  /** The path `authorize` is asked about, when it is not the request's own (an alias is authorised as its target). */
  readonly authorizePath?: (path: string) => string;
  /**
   * Every request field is the caller's own (Vault's TakesArbitraryInput, a KV version 1 write): none earns the
   * "unrecognized parameters" warning.
   */
  readonly takesArbitraryInput?: true;
}

type FieldsOf<S> = S extends z.ZodType ? z.output<S> : S extends FieldReader<infer F> ? F : Record<string, never>;

/** Declares a route whose handlers are typed by its field schema. */
export function route<S extends FieldSource | undefined = undefined>(definition: {
  pattern: string | RegExp;
  summary?: string;
  path?: string;
  fields?: S;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see Route.operations
  operations: Partial<Record<Operation, Handler<FieldsOf<S>> | OperationDef<any>>>;
  exists?: (context: ExistenceContext) => Promise<boolean>;
  unauthenticated?: boolean;
  authorizePath?: (path: string) => string;
  takesArbitraryInput?: true;
}): Route {
  return definition;
}

/** Declares one operation with fields of its own, overriding the route's. */
export function operation<S extends z.ZodObject>(
  fields: S,
  handler: Handler<z.output<S>>,
  options: Pick<OperationDef<unknown>, 'mediaTypes' | 'alsoRequires'> = {},
): OperationDef<z.output<S>> {
  return { fields, handler, ...options };
}
