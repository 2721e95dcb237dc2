import { InvalidRequest } from '../lib/errors.js';
import { MAX_NESTING } from './hcl.js';

/**
 * A strict JSON reader for policies in JSON form that keeps every member of an object, in order, duplicates included.
 * Vault reads JSON policies with HCL's reader, which does the same: a policy naming a path twice holds two stanzas
 * that merge, exactly as two `path` blocks of an HCL policy do. `JSON.parse` would keep only the last one and silently
 * drop a deny written in the first.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | JsonMembers;

/** A JSON object as the list of its members. */
export class JsonMembers {
  constructor(readonly members: ReadonlyArray<readonly [string, JsonValue]>) {}
}

// Sticky: each matches at `lastIndex` only. The two branches of STRING never overlap, so matching is linear.
const STRING = /"(?:[^"\\\u0000-\u001f]|\\.)*"/y;
const LITERAL = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SPACE = /[ \t\n\r]*/y;

class Reader {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): JsonValue {
    const value = this.value(0);
    this.skipSpace();
    if (this.at < this.text.length) this.fail('unexpected text after the document');
    return value;
  }

  private value(depth: number): JsonValue {
    if (depth > MAX_NESTING) this.fail('nesting too deep');
    this.skipSpace();
    if (this.take('{')) return this.object(depth);
    if (this.take('[')) return this.array(depth);
    // A string or a literal is decoded by JSON.parse itself, so escapes and numbers mean what they mean there.
    const token = this.match(STRING) ?? this.match(LITERAL);
    if (token === undefined) this.fail('expected a value');
    return this.decode(token);
  }

  private object(depth: number): JsonMembers {
    const members: Array<readonly [string, JsonValue]> = [];
    if (this.take('}')) return new JsonMembers(members);
    do {
      this.skipSpace();
      const key = this.match(STRING);
      if (key === undefined) this.fail('expected a string key');
      this.expect(':');
      members.push([this.decode(key) as string, this.value(depth + 1)]);
    } while (this.take(','));
    this.expect('}');
    return new JsonMembers(members);
  }

  private array(depth: number): JsonValue[] {
    const items: JsonValue[] = [];
    if (this.take(']')) return items;
    do items.push(this.value(depth + 1));
    while (this.take(','));
    this.expect(']');
    return items;
  }

  /** The value of a string or literal token; only a string's escapes can be wrong ("\\x", a short "\\u12"). */
  private decode(token: string): JsonValue {
    try {
      return JSON.parse(token) as JsonValue;
    } catch {
      return this.fail(`invalid string ${token}`);
    }
  }

  /** Consumes `char` (after any white space) when it comes next. */
  private take(char: string): boolean {
    this.skipSpace();
    if (this.text[this.at] !== char) return false;
    this.at++;
    return true;
  }

  private expect(char: string): void {
    if (!this.take(char)) this.fail(`expected ${JSON.stringify(char)}`);
  }

  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text)?.[0];
    if (found !== undefined) this.at += found.length;
    return found;
  }

  private skipSpace(): void {
    this.match(SPACE);
  }

  private fail(message: string): never {
    const found =
      this.at < this.text.length ? `${JSON.stringify(this.text[this.at])} at position ${this.at}` : 'end of input';
    throw new InvalidRequest(`failed to parse policy: invalid JSON: ${message}, found ${found}`);
  }
}

/** Reads a JSON document; throws InvalidRequest naming the problem and where it was found. */
export function readJson(text: string): JsonValue {
  return new Reader(text).document();
}
