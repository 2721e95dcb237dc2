import { z } from 'zod';
import { parseDuration } from '../../lib/duration.js';
import { InvalidRequest } from '../../lib/errors.js';

/**
 * Zod field types with Vault's loose conversions (numbers from numeric strings, booleans from "true"/"1",
 * lists from comma-separated strings), so that existing clients keep working while every value is still validated.
 */

type Ctx = z.core.$RefinementCtx;

const REQUIRED = 'is required';

function fail(ctx: Ctx, input: unknown, message: string): never {
  ctx.issues.push({ code: 'custom', message: input === undefined ? REQUIRED : message, input });
  return z.NEVER;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return typeof value;
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function toInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && /^\s*[+-]?\d+(\.\d+)?\s*$/.test(value)) return Math.trunc(Number(value));
  return undefined;
}

/** The key of zod's metadata that names a field's type for the route tables of docs/ (see field-help.ts). */
export const FIELD_TYPE = 'fieldType';

/** Names the type of a field whose schema does not come from a builder below. */
export function typed<T extends z.ZodType>(schema: T, type: string): T {
  return schema.meta({ [FIELD_TYPE]: type });
}

function range(type: string, min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `${type}, ${min} to ${max}`;
  if (min !== undefined) return `${type} ≥ ${min}`;
  return max !== undefined ? `${type} ≤ ${max}` : type;
}

export function int(options: { min?: number; max?: number } = {}) {
  const min = options.min ?? Number.MIN_SAFE_INTEGER;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  const schema = z.unknown().transform((value, ctx): number => {
    const n = toInteger(value);
    if (n === undefined || !Number.isSafeInteger(n))
      return fail(ctx, value, `expected an integer, got ${describe(value)}`);
    if (n < min) return fail(ctx, value, `must be at least ${min}, got ${n}`);
    if (n > max) return fail(ctx, value, `must be at most ${max}, got ${n}`);
    return n;
  });
  return typed(schema, range('integer', options.min, options.max));
}

const TRUE_WORDS = new Set(['true', 't', '1']);
const FALSE_WORDS = new Set(['false', 'f', '0']);

export function bool() {
  const schema = z.unknown().transform((value, ctx): boolean => {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return value !== 0;
    if (typeof value === 'string') {
      const word = value.trim().toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
    }
    return fail(ctx, value, `expected a boolean, got ${describe(value)}`);
  });
  return typed(schema, 'boolean');
}

/** Why a value is refused, as `str` and the hand-written readers of hot routes word it. */
export class FieldProblem {
  constructor(readonly message: string) {}
}

/** The text of a string field (numbers and booleans count in their text form), or why it is not one. */
export function textField(value: unknown, maxLength: number): string | FieldProblem {
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : undefined;
  if (text === undefined) return new FieldProblem(`expected a string, got ${describe(value)}`);
  if (text.length > maxLength) return new FieldProblem(`must be at most ${maxLength} characters`);
  return text;
}

/** A string; numbers and booleans are accepted in their text form. */
export function str(options: { maxLength?: number } = {}) {
  const maxLength = options.maxLength ?? 1 << 20;
  const schema = z.unknown().transform((value, ctx): string => {
    const text = textField(value, maxLength);
    return typeof text === 'string' ? text : fail(ctx, value, text.message);
  });
  return typed(schema, 'string');
}

/** A duration in seconds: a number of seconds, a numeric string, "<n>d", or Go syntax ("1h30m"). */
export function duration(options: { allowNegative?: boolean } = {}) {
  const schema = z.unknown().transform((value, ctx): number => {
    if (typeof value !== 'number' && typeof value !== 'string') {
      return fail(ctx, value, `expected a duration, got ${describe(value)}`);
    }
    let seconds: number;
    try {
      seconds = parseDuration(value);
    } catch (error) {
      return fail(ctx, value, error instanceof InvalidRequest ? error.message : 'invalid duration');
    }
    if (seconds < 0 && !options.allowNegative) return fail(ctx, value, `cannot provide negative value '${value}'`);
    return seconds;
  });
  return typed(schema, 'duration');
}

function listItems(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value as unknown[];
  if (typeof value === 'string') return value.split(',');
  if (typeof value === 'number') return [value];
  return undefined;
}

/** A list of strings: a JSON array, or a comma-separated string. Items are trimmed; empty items are dropped. */
export function stringList() {
  const schema = z.unknown().transform((value, ctx): string[] => {
    const items = listItems(value);
    if (!items)
      return fail(ctx, value, `expected a list of strings or a comma-separated string, got ${describe(value)}`);
    const out: string[] = [];
    for (const item of items) {
      if (typeof item !== 'string' && typeof item !== 'number') {
        return fail(ctx, value, `expected a list of strings, got an item ${describe(item)}`);
      }
      const text = String(item).trim();
      if (text !== '') out.push(text);
    }
    return out;
  });
  return typed(schema, 'list of strings');
}

/** A list of integers: [1,2], ["1","2"], "1,2" or 1. */
export function intList(options: { min?: number } = {}) {
  const schema = z.unknown().transform((value, ctx): number[] => {
    const items = listItems(value);
    if (!items) return fail(ctx, value, `expected a list of integers, got ${describe(value)}`);
    const out: number[] = [];
    for (const item of items) {
      if (typeof item === 'string' && item.trim() === '') continue;
      const n = toInteger(item);
      if (n === undefined || !Number.isSafeInteger(n))
        return fail(ctx, value, `expected a list of integers, got an item ${describe(item)}`);
      if (options.min !== undefined && n < options.min)
        return fail(ctx, value, `items must be at least ${options.min}, got ${n}`);
      out.push(n);
    }
    return out;
  });
  return typed(schema, 'list of integers');
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A JSON object; null is accepted as "present but empty" unless `nullable` is false. */
export function object(options: { nullable?: boolean } = {}) {
  const schema = z.unknown().transform((value, ctx): Record<string, unknown> => {
    if (value === null && options.nullable !== false) return {};
    if (!isPlainObject(value)) return fail(ctx, value, `expected a JSON object, got ${describe(value)}`);
    return value;
  });
  return typed(schema, 'object');
}

/** A map of string to string (null is an empty map). */
export function stringMap() {
  const schema = z.unknown().transform((value, ctx): Record<string, string> => {
    if (value === null) return {};
    if (!isPlainObject(value)) return fail(ctx, value, `expected a map of strings, got ${describe(value)}`);
    const out: Record<string, string> = {};
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== 'string')
        return fail(ctx, value, `expected a string value for key ${describe(key)}, got ${describe(item)}`);
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    }
    return out;
  });
  return typed(schema, 'map of strings');
}

/** The sentence naming a field and what is wrong with it; the parts of a failure are joined with '; '. */
export function describeFieldProblem(name: string, message: string): string {
  if (message === REQUIRED) return `missing required field "${name}"`;
  return name ? `invalid value for field "${name}": ${message}` : message;
}

/** Turns a zod failure into one clear sentence naming the field(s). */
export function describeFieldError(error: z.ZodError): string {
  return error.issues.map((issue) => describeFieldProblem(issue.path.map(String).join('.'), issue.message)).join('; ');
}
