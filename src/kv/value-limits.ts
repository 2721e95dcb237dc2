import { InvalidRequest } from '../core/errors.js';
import { MAX_JSON_DEPTH } from '../core/request-shape.js';

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

const stringBytes = (text: string): number => Buffer.byteLength(JSON.stringify(text));

function scalarBytes(value: unknown): number {
  if (typeof value === 'string') return stringBytes(value);
  // undefined and functions do not occur in parsed JSON; counted as null, which is what an array would hold.
  return JSON.stringify(value)?.length ?? 4;
}

/**
 * Measures a JSON value iteratively, stopping as soon as it is larger than `capBytes` or deeper than `capHeight`
 * (the answer then exceeds the cap, so the caller never pays for the rest of a huge value).
 */
export function measure(value: unknown, capBytes: number, capHeight: number): Measure {
  let bytes = 0;
  let height = 0;
  const stack: { value: unknown; level: number }[] = [{ value, level: 0 }];
  while (stack.length > 0) {
    const { value: current, level } = stack.pop() as (typeof stack)[number];
    if (typeof current !== 'object' || current === null) {
      bytes += scalarBytes(current);
    } else {
      height = Math.max(height, level + 1);
      const entries = Array.isArray(current) ? current.map((item) => ['', item] as const) : Object.entries(current);
      bytes += 2 + Math.max(entries.length - 1, 0);
      for (const [name, child] of entries) {
        if (!Array.isArray(current)) bytes += stringBytes(name) + 1;
        stack.push({ value: child, level: level + 1 });
      }
    }
    if (bytes > capBytes || height > capHeight) break;
  }
  return { bytes, height };
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
