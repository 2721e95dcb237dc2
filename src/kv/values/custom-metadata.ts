import { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import { isPlainObject, typed } from '../../core/framework/fields.js';

/**
 * custom_metadata: a key's user-provided map of strings. Limits as in Vault: at most 64 entries, keys of 1 to
 * 128 bytes, values of 1 to 512 bytes (UTF-8), every character printable in the sense of Go's unicode.IsPrint.
 */

const MAX_CUSTOM_KEYS = 64;
const MAX_KEY_BYTES = 128;
const MAX_VALUE_BYTES = 512;
const PREFIX = 'custom_metadata validation failed: ';
/** Keys are echoed in messages; very long ones are cut so that an error stays readable. */
const ECHO_LIMIT = 48;

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  '\u0007': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

function isPrintable(text: string): boolean {
  for (const char of text) if (!PRINTABLE.test(char)) return false;
  return true;
}

/** Go's %q, which Vault's messages use: unprintable characters appear as escapes, never raw. */
function quote(text: string): string {
  const chars = [...text];
  const echoed = chars.length > ECHO_LIMIT ? [...chars.slice(0, ECHO_LIMIT), '…'] : chars;
  let out = '"';
  for (const char of echoed) {
    const code = char.codePointAt(0) as number;
    const named = NAMED_ESCAPES[char];
    if (named) out += named;
    else if (PRINTABLE.test(char)) out += char;
    else if (code < 0x80) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** Vault reports all problems at once, in the format of Go's multierror. */
function multiError(messages: readonly string[]): string {
  const header = messages.length === 1 ? '1 error occurred:' : `${messages.length} errors occurred:`;
  return `${header}\n${messages.map((message) => `\t* ${message}`).join('\n')}\n\n`;
}

function entryProblems(key: string, value: string | null): string[] {
  const problems: string[] = [];
  const keyBytes = Buffer.byteLength(key, 'utf8');
  if (keyBytes === 0 || keyBytes > MAX_KEY_BYTES) {
    problems.push(`${PREFIX}length of key ${quote(key)} is ${keyBytes} but must be 0 < len(key) <= ${MAX_KEY_BYTES}`);
  }
  if (!isPrintable(key)) problems.push(`${PREFIX}key ${quote(key)} contains unprintable characters`);
  if (value === null) return problems;
  const valueBytes = Buffer.byteLength(value, 'utf8');
  if (valueBytes === 0 || valueBytes > MAX_VALUE_BYTES) {
    problems.push(
      `${PREFIX}length of value for key ${quote(key)} is ${valueBytes} but must be 0 < len(value) <= ${MAX_VALUE_BYTES}`,
    );
  }
  if (!isPrintable(value)) problems.push(`${PREFIX}value for key ${quote(key)} contains unprintable characters`);
  return problems;
}

function tooMany(count: number): string {
  return `${PREFIX}payload must contain at most ${MAX_CUSTOM_KEYS} keys, provided ${count}`;
}

/** Loose conversion as in Vault: numbers become their decimal text, booleans "1" or "0". */
function convert(key: string, value: unknown, problems: string[]): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  problems.push(`${PREFIX}value for key ${quote(key)} expected type 'string', got unconvertible type '${type}'`);
  return null;
}

/**
 * Converts and checks a map; with `removals` (metadata PATCH) a null value is kept, meaning "remove this key", and the
 * entry count is checked later on the merged result (`checkCustomMetadataSize`).
 */
function parseMap(input: unknown, removals: boolean, ctx: z.core.$RefinementCtx): Record<string, string | null> {
  if (!isPlainObject(input)) {
    ctx.issues.push({
      code: 'custom',
      message: `expected a map of strings, got ${Array.isArray(input) ? 'an array' : typeof input}`,
      input,
    });
    return z.NEVER;
  }
  const entries = Object.entries(input);
  const problems: string[] = [];
  if (!removals && entries.length > MAX_CUSTOM_KEYS) problems.push(tooMany(entries.length));
  const converted: [string, string | null][] = [];
  for (const [key, value] of problems.length > 0 ? [] : entries) {
    const text = removals && value === null ? null : convert(key, value, problems);
    problems.push(...entryProblems(key, text));
    converted.push([key, text]);
  }
  if (problems.length > 0) {
    ctx.issues.push({ code: 'custom', message: multiError(problems), input });
    return z.NEVER;
  }
  // Object.fromEntries defines own properties, so a key named "__proto__" stays an ordinary entry.
  return Object.fromEntries(converted);
}

/** The field of metadata writes: a map of strings, null meaning empty. */
export const customMetadata = () =>
  typed(
    z
      .unknown()
      .transform((input, ctx) => (input === null ? {} : (parseMap(input, false, ctx) as Record<string, string>))),
    'map of strings',
  );

/** The field of metadata patches: null removes every entry, a null value removes that entry. */
export const customMetadataPatch = () =>
  typed(
    z.unknown().transform((input, ctx) => (input === null ? null : parseMap(input, true, ctx))),
    'map of strings',
  );

/** A PATCH may only grow the map up to the limit (Vault checks the patch alone and lets it grow past 64). */
export function checkCustomMetadataSize(merged: Record<string, string>): void {
  const count = Object.keys(merged).length;
  if (count > MAX_CUSTOM_KEYS) throw new InvalidRequest(multiError([tooMany(count)]));
}
