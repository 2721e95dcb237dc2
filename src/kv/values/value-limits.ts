import { InvalidRequest } from '../../lib/errors.js';
import { MAX_JSON_DEPTH } from '../../core/framework/request-shape.js';

/**
 * How large and how deep a secret's data may be. Both apply to every version the engine stores, whether written
 * whole or produced by a patch: a patch must never build a value that a write could not carry, and the walks over
 * stored data (subkeys, serialisation) rely on the depth bound.
 */

/** The default size limit of a version's data, as serialised JSON: the same 1 MiB a request body may have. */
export const DEFAULT_MAX_VALUE_BYTES = 1024 * 1024;

/** Levels of nesting a version's data may have (the data object is the first): what fits in a request body's `data`. */
export const MAX_DATA_DEPTH = MAX_JSON_DEPTH - 1;

export interface ValueLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
}

export interface Measure {
  /** Bytes of the value serialised as JSON (UTF-8), exact while within the cap. */
  bytes: number;
  /** Levels of arrays and objects: 0 for a scalar, 1 for `{}` or `[1]`. */
  height: number;
}

/** Printable ASCII without '"' or '\\': JSON writes such a string as it is, between quotes. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const PLAIN_CHECKED_UP_TO = 1024;

function stringBytes(text: string): number {
  if (text.length <= PLAIN_CHECKED_UP_TO && PLAIN.test(text)) return text.length + 2;
  return Buffer.byteLength(JSON.stringify(text));
}

function scalarBytes(value: unknown): number {
  if (typeof value === 'string') return stringBytes(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  // null; undefined and functions do not occur in parsed JSON, and are counted as null, which is what an array would hold.
  return JSON.stringify(value)?.length ?? 4;
}

/**
 * Measures a JSON value iteratively, stopping as soon as it is larger than `capBytes` or deeper than `capHeight`
 * (the answer then exceeds the cap, so the caller never pays for the rest of a huge value).
 */
export function measure(value: unknown, capBytes: number, capHeight: number): Measure {
  let bytes = 0;
  let height = 0;
  // The values still to measure and their levels, as two stacks (no object per value).
  const values: unknown[] = [value];
  const levels: number[] = [0];
  while (values.length > 0) {
    const current = values.pop();
    const level = levels.pop() as number;
    if (typeof current !== 'object' || current === null) {
      bytes += scalarBytes(current);
    } else if (Array.isArray(current)) {
      height = Math.max(height, level + 1);
      bytes += 2 + Math.max(current.length - 1, 0);
      for (const item of current) {
        values.push(item);
        levels.push(level + 1);
      }
    } else {
      height = Math.max(height, level + 1);
      const names = Object.keys(current);
      bytes += 2 + Math.max(names.length - 1, 0);
      for (const name of names) {
        bytes += stringBytes(name) + 1;
        values.push((current as Record<string, unknown>)[name]);
        levels.push(level + 1);
      }
    }
    if (bytes > capBytes || height > capHeight) break;
  }
  return { bytes, height };
}

/**
 * The limits an engine applies, from its `maxValueBytes` option (absent: the default). A wrong option is the embedding
 * service's mistake, refused when the engine is built.
 */
export function valueLimits(maxValueBytes: unknown): ValueLimits {
  if (maxValueBytes !== undefined && !(typeof maxValueBytes === 'number' && maxValueBytes > 0)) {
    throw new TypeError('maxValueBytes must be a positive number of bytes');
  }
  return { maxBytes: maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES, maxDepth: MAX_DATA_DEPTH };
}

export function tooLarge(limits: ValueLimits): string {
  return `larger than the limit of ${limits.maxBytes} bytes`;
}

export function tooDeep(limits: ValueLimits): string {
  return `nested more than ${limits.maxDepth} levels deep`;
}

/** Refuses data a version may not hold (400). */
export function checkValue(data: unknown, limits: ValueLimits, what = 'the data'): void {
  const { bytes, height } = measure(data, limits.maxBytes, limits.maxDepth);
  if (bytes > limits.maxBytes) throw new InvalidRequest(`${what} is ${tooLarge(limits)}`);
  if (height > limits.maxDepth) throw new InvalidRequest(`${what} is ${tooDeep(limits)}`);
}
