import { InvalidRequest } from '../../lib/errors.js';
import type { EngineRequest } from './request.js';

/**
 * The shape checks every request passes before routing. `handle()` is the boundary: a transport may hand over
 * anything, and a value of the wrong type must be a 400 that names it, never a TypeError deep inside an engine (500).
 */

/**
 * Most levels of nested arrays and objects in a body (the body object itself is the first). The engines walk and
 * serialise documents recursively; V8's stack gives out somewhere near 2000 levels, and no secret or setting is ever
 * nested a tenth that deep.
 */
export const MAX_JSON_DEPTH = 256;

function isObjectLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTextOrTextList(value: unknown): boolean {
  return typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'));
}

function checkHeaders(headers: unknown): void {
  if (headers === undefined || headers === null) return;
  if (!isObjectLike(headers)) throw new InvalidRequest('the request headers must be an object');
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !isTextOrTextList(value))
      throw new InvalidRequest(`header ${JSON.stringify(name)} must be a string or a list of strings`);
  }
}

/**
 * What a value is when JSON cannot carry it as it is: serialising would throw (a BigInt) or silently drop or change it
 * (a function, a symbol, NaN and the infinities, a Map, a Set, a Date, a typed array: anything but plain objects and
 * arrays). A secret written as a Map would be stored as `{}`. Undefined is JSON's "absent" and passes.
 */
function notJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'bigint':
      return 'a BigInt';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'number':
      return Number.isFinite(value) ? undefined : `the number ${value}`;
    case 'object': {
      if (value === null || Array.isArray(value)) return undefined;
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto === Object.prototype || proto === null) return undefined;
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return `a ${typeof name === 'string' && name !== '' ? name : 'non-plain object'}`;
    }
    default:
      return undefined;
  }
}

/**
 * Refuses a document nested deeper than MAX_JSON_DEPTH, one that contains itself, or one holding a value JSON cannot
 * carry as it is (see notJson). Iterative, so that the check itself cannot overflow the stack.
 */
export function checkJsonDocument(document: unknown, what: string): void {
  // Most bodies are one flat object of strings, numbers and booleans (every login), or an object of such objects (a KV
  // write's `{"data": {...}}`): two levels, and nothing that could contain itself, so nothing to walk.
  if (isShallowObject(document)) return;
  const ancestors = new Set<object>();
  const stack: { value: unknown; depth: number; leave?: object }[] = [{ value: document, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth, leave } = stack.pop() as (typeof stack)[number];
    if (leave) {
      ancestors.delete(leave);
      continue;
    }
    const problem = notJson(value);
    if (problem) throw new InvalidRequest(`${what} is not JSON: it holds ${problem}`);
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_JSON_DEPTH) throw new InvalidRequest(`${what} is nested more than ${MAX_JSON_DEPTH} levels deep`);
    if (ancestors.has(value)) throw new InvalidRequest(`${what} is not JSON: it contains itself`);
    ancestors.add(value);
    stack.push({ value: undefined, depth, leave: value });
    for (const child of Object.values(value)) stack.push({ value: child, depth: depth + 1 });
  }
}

/** Checks the parts of a request that the dispatcher and the engines read; the method and path are checked by routing. */
export function checkRequestShape(request: unknown): asserts request is EngineRequest {
  if (!isObjectLike(request)) throw new InvalidRequest('the request must be an object');
  // Query values become field input, which the routes' schemas validate (and convert loosely, as from JSON).
  if (request.query !== undefined && request.query !== null && !isObjectLike(request.query)) {
    throw new InvalidRequest('the request query must be an object');
  }
  checkHeaders(request.headers);
  if (request.remoteAddress !== undefined && typeof request.remoteAddress !== 'string') {
    throw new InvalidRequest('the request remoteAddress must be a string');
  }
  // null is "no callback", as undefined; anything else would otherwise fail as a TypeError (500) at the first check.
  if (request.authorize !== undefined && request.authorize !== null && typeof request.authorize !== 'function') {
    throw new InvalidRequest('the request authorize must be a function');
  }
  if (request.actor !== undefined && request.actor !== null && typeof request.actor !== 'function') {
    throw new InvalidRequest('the request actor must be a function');
  }
  checkJsonDocument(request.body, 'the request body');
}

/** A JSON scalar as JSON carries it: text, a finite number, a boolean, null, or an absent (undefined) member. */
function isPlainScalar(value: unknown): boolean {
  const type = typeof value;
  return (
    type === 'string' ||
    type === 'boolean' ||
    value === null ||
    value === undefined ||
    (type === 'number' && Number.isFinite(value))
  );
}

/** A plain object (or array) whose members are plain scalars or flat plain objects (see isFlatObject). */
function isShallowObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || notJson(value)) return false;
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (!isPlainScalar(child) && !isFlatObject(child)) return false;
  }
  return true;
}

function isFlatObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || notJson(value)) return false;
  for (const key in value) {
    if (!isPlainScalar((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}
