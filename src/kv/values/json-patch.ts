import { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import { isPlainObject } from '../../core/framework/fields.js';
import { jsonEqual } from './json-equal.js';
import { measure, tooDeep, tooLarge, type Measure, type ValueLimits } from './value-limits.js';

/**
 * RFC 6902 JSON Patch: `data` holds the operations and they apply to the current version's data.
 *
 * Our own applier rather than a library's, because it must bound its work as it goes: a `copy` of the root doubles
 * the document, so a few hundred bytes of operations could otherwise build gigabytes before any check ran. It keeps
 * the exact serialised size and checks size and depth before each operation takes effect, and every failure is a 400
 * naming the operation (never the document's content: it holds secrets). Member names such as "__proto__" are
 * ordinary data: members are defined, never assigned, and only own members are read.
 */

/** Most operations in one request; far more than any hand-written patch has. */
export const MAX_PATCH_OPERATIONS = 1000;

/**
 * Measuring what operations remove, move, copy or compare costs the bytes measured; a request may spend this many
 * times the value limit in all, so that a loop of copies and removals ends in bounded time too.
 */
const WORK_FACTOR = 8;

const pointer = z
  .string()
  .refine((text) => text === '' || text.startsWith('/'), 'must be a JSON pointer ("" or starting with "/")');
const withValue = z.object({ path: pointer, value: z.unknown().refine((value) => value !== undefined, 'is required') });
const withFrom = z.object({ path: pointer, from: pointer });

/** The operations of a JSON Patch request, checked before any applies: at most MAX_PATCH_OPERATIONS. */
export const jsonPatchOperations = z
  .array(
    z.discriminatedUnion('op', [
      withValue.extend({ op: z.literal('add') }),
      withValue.extend({ op: z.literal('replace') }),
      withValue.extend({ op: z.literal('test') }),
      z.object({ op: z.literal('remove'), path: pointer }),
      withFrom.extend({ op: z.literal('move') }),
      withFrom.extend({ op: z.literal('copy') }),
    ]),
  )
  .max(MAX_PATCH_OPERATIONS, `at most ${MAX_PATCH_OPERATIONS} JSON Patch operations are allowed`);
/**
 * One RFC 6902 operation: `add`, `replace` and `test` with a `value`, `remove`, and `move` and `copy` with a `from`;
 * paths are JSON pointers.
 * @useDeclaredType
 */
export type JsonPatchOperation = z.output<typeof jsonPatchOperations>[number];

type Container = Record<string, unknown> | unknown[];

/** A failed operation; turned into a 400 naming the operation by applyJsonPatch. */
class OperationFailed extends Error {}

function tokensOf(text: string): string[] {
  if (text === '') return [];
  return text
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~[^01]|~$/.test(token)) throw new OperationFailed(`${JSON.stringify(text)} has an invalid "~" escape`);
      return token.replaceAll('~1', '/').replaceAll('~0', '~');
    });
}

function arrayIndex(array: unknown[], token: string, text: string, appending: boolean): number {
  if (appending && token === '-') return array.length;
  const index = /^(0|[1-9]\d*)$/.test(token) ? Number(token) : Number.NaN;
  if (!(index < array.length + (appending ? 1 : 0)))
    throw new OperationFailed(`path ${JSON.stringify(text)} does not exist`);
  return index;
}

function childOf(container: unknown, token: string, text: string): unknown {
  if (Array.isArray(container)) return container[arrayIndex(container, token, text, false)];
  if (isPlainObject(container) && Object.hasOwn(container, token)) return container[token];
  throw new OperationFailed(`path ${JSON.stringify(text)} does not exist`);
}

/** A location below the root: the container that holds it, its name there, and its pointer as written. */
interface Slot {
  parent: Container;
  token: string;
  text: string;
}

/** undefined: the root, the whole document. */
type Location = Slot | undefined;

const SIZE_OF_COMMA = 1;

/** A member's name as serialised, with its colon. */
const memberNameBytes = (name: string): number => Buffer.byteLength(JSON.stringify(name)) + 1;

/** A value about to enter the document, with its serialised size. */
interface Sized {
  value: unknown;
  bytes: number;
}

class Patcher {
  private size: number;
  private work: number;

  constructor(
    private document: unknown,
    private readonly limits: ValueLimits,
  ) {
    this.work = WORK_FACTOR * limits.maxBytes;
    this.size = this.measure(document).bytes;
  }

  result(): unknown {
    return this.document;
  }

  apply(operation: JsonPatchOperation): void {
    switch (operation.op) {
      case 'add':
        return this.insert(this.locate(operation.path), this.fresh(operation.value, operation.path));
      case 'replace':
        this.take(this.locate(operation.path));
        return this.insert(this.locate(operation.path), this.fresh(operation.value, operation.path));
      case 'remove': {
        const location = this.locate(operation.path);
        if (!location) throw new OperationFailed('the whole document cannot be removed');
        return void this.take(location);
      }
      case 'test': {
        this.checkFits(this.measure(operation.value), operation.path);
        if (!jsonEqual(this.valueAt(this.locate(operation.path)), operation.value)) {
          throw new OperationFailed(`the value at ${JSON.stringify(operation.path)} is not the expected value`);
        }
        return;
      }
      case 'copy':
        return this.insert(
          this.locate(operation.path),
          this.fresh(this.valueAt(this.locate(operation.from)), operation.path),
        );
      case 'move': {
        if (operation.from === operation.path) return void this.valueAt(this.locate(operation.from));
        if (operation.path.startsWith(`${operation.from}/`))
          throw new OperationFailed(`cannot move ${JSON.stringify(operation.from)} into itself`);
        // `from` is no root here: moving the root anywhere else is moving it into itself.
        const from = this.locate(operation.from);
        const value = this.valueAt(from);
        const measured = this.take(from);
        this.checkFits(measured, operation.path);
        return this.insert(this.locate(operation.path), { value, bytes: measured.bytes });
      }
    }
  }

  private measure(value: unknown): Measure {
    const measured = measure(value, this.limits.maxBytes, this.limits.maxDepth);
    this.work -= measured.bytes;
    if (this.work < 0)
      throw new OperationFailed(
        `the operations do more work than a request may (${WORK_FACTOR} times the value size limit)`,
      );
    return measured;
  }

  /** A copy of `value` for the document, once it is known to fit at `path` (a later change must not alter the source). */
  private fresh(value: unknown, path: string): Sized {
    const measured = this.measure(value);
    this.checkFits(measured, path);
    return { value: JSON.parse(JSON.stringify(value)), bytes: measured.bytes };
  }

  /** Whether a value of this measure may go to `path` at all; whether the document has room is checked on insertion. */
  private checkFits({ bytes, height }: Measure, path: string): void {
    if (tokensOf(path).length + height > this.limits.maxDepth)
      throw new OperationFailed(`the result would be ${tooDeep(this.limits)}`);
    if (bytes > this.limits.maxBytes) throw new OperationFailed(`the result would be ${tooLarge(this.limits)}`);
  }

  private locate(text: string): Location {
    const tokens = tokensOf(text);
    const token = tokens.pop();
    if (token === undefined) return undefined;
    let parent: unknown = this.document;
    for (const step of tokens) parent = childOf(parent, step, text);
    if (!Array.isArray(parent) && !isPlainObject(parent))
      throw new OperationFailed(`path ${JSON.stringify(text)} does not exist`);
    return { parent, token, text };
  }

  private valueAt(location: Location): unknown {
    return location ? childOf(location.parent, location.token, location.text) : this.document;
  }

  /** Adds the value at the location (RFC 6902 "add": an object member is replaced, an array element inserted). */
  private insert(location: Location, { value, bytes }: Sized): void {
    if (!location) {
      this.size = bytes;
      this.document = value;
      return;
    }
    const { parent, token, text } = location;
    if (Array.isArray(parent)) {
      const index = arrayIndex(parent, token, text, true);
      this.grow(bytes + (parent.length > 0 ? SIZE_OF_COMMA : 0));
      parent.splice(index, 0, value);
      return;
    }
    if (Object.hasOwn(parent, token)) this.take(location);
    this.grow(bytes + memberNameBytes(token) + (Object.keys(parent).length > 0 ? SIZE_OF_COMMA : 0));
    Object.defineProperty(parent, token, { value, enumerable: true, writable: true, configurable: true });
  }

  /**
   * Removes the value at the location and answers its measure. The root is only measured: it is only ever replaced,
   * and the caller is about to insert its replacement.
   */
  private take(location: Location): Measure {
    const measured = this.measure(this.valueAt(location));
    if (!location) return measured;
    const { parent, token } = location;
    if (Array.isArray(parent)) {
      parent.splice(Number(token), 1);
      this.size -= measured.bytes + (parent.length > 0 ? SIZE_OF_COMMA : 0);
      return measured;
    }
    delete parent[token];
    this.size -= measured.bytes + memberNameBytes(token) + (Object.keys(parent).length > 0 ? SIZE_OF_COMMA : 0);
    return measured;
  }

  private grow(bytes: number): void {
    if (this.size + bytes > this.limits.maxBytes)
      throw new OperationFailed(`the result would be ${tooLarge(this.limits)}`);
    this.size += bytes;
  }
}

/**
 * Applies the operations to a copy of `document`, within the limits a version's data has. A failing operation is a
 * 400 that names the operation and the reason, never the document.
 */
export function applyJsonPatch(
  document: unknown,
  operations: readonly JsonPatchOperation[],
  limits: ValueLimits,
): unknown {
  const patcher = new Patcher(JSON.parse(JSON.stringify(document)), limits);
  operations.forEach((operation, index) => {
    try {
      patcher.apply(operation);
    } catch (error) {
      if (!(error instanceof OperationFailed)) throw error;
      throw new InvalidRequest(`JSON Patch operation ${index} (${operation.op}) failed: ${error.message}`);
    }
  });
  return patcher.result();
}
