import { InvalidRequest } from '../core/errors.js';

/**
 * A reader for the subset of HCL that policies are written in: blocks with string labels (`path "x" { ... }`),
 * assignments (`capabilities = ["read"]`), strings, numbers, booleans, lists, nested objects and the three comment
 * styles. Duplicate keys are kept in order (a policy may name the same path twice), so the result is a list of
 * entries rather than an object.
 */

export type HclValue = string | number | boolean | HclValue[] | HclObject;

/** A block body or an object value: kept apart from lists, so `capabilities = {}` is not mistaken for `[]`. */
export class HclObject {
  constructor(readonly entries: HclEntry[]) {}
}

export interface HclEntry {
  key: string;
  labels: string[];
  value: HclValue;
  line: number;
}

type TokenKind = 'string' | 'ident' | 'number' | 'punct' | 'eof';

interface Token {
  kind: TokenKind;
  text: string;
  line: number;
}

/** Deeper nesting than this is never a policy; refusing it keeps hostile input from exhausting the stack. */
export const MAX_NESTING = 32;

const PUNCTUATION = new Set(['{', '}', '[', ']', '=', ',']);

function fail(line: number, message: string): never {
  throw new InvalidRequest(`failed to parse policy: line ${line}: ${message}`);
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '\n') {
      line++;
      i++;
    } else if (/\s/.test(char)) {
      i++;
    } else if (char === '#' || text.startsWith('//', i)) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) fail(line, 'unterminated comment');
      line += text.slice(i, end).split('\n').length - 1;
      i = end + 2;
    } else if (char === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') {
        if (text[end] === '\n') fail(line, 'unterminated string');
        end += text[end] === '\\' ? 2 : 1;
      }
      if (end >= text.length) fail(line, 'unterminated string');
      tokens.push({ kind: 'string', text: decodeString(text.slice(i, end + 1), line), line });
      i = end + 1;
    } else if (PUNCTUATION.has(char)) {
      tokens.push({ kind: 'punct', text: char, line });
      i++;
    } else {
      const word = /^(-?\d+(\.\d+)?|[A-Za-z_][\w.-]*)/.exec(text.slice(i, i + 256));
      if (!word) fail(line, text.startsWith('<<', i) ? 'heredoc strings are not supported' : `unexpected character ${JSON.stringify(char)}`);
      tokens.push({ kind: /^-?\d/.test(word[0]) ? 'number' : 'ident', text: word[0], line });
      i += word[0].length;
    }
  }
  tokens.push({ kind: 'eof', text: '', line });
  return tokens;
}

function decodeString(literal: string, line: number): string {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return fail(line, `invalid string ${literal}`);
  }
}

class Parser {
  private position = 0;

  constructor(private readonly tokens: Token[]) {}

  body(depth: number, closing: '}' | 'eof'): HclEntry[] {
    if (depth > MAX_NESTING) fail(this.peek().line, 'nesting too deep');
    const entries: HclEntry[] = [];
    for (;;) {
      const token = this.peek();
      if (closing === 'eof' ? token.kind === 'eof' : this.isPunct(token, '}')) return entries;
      if (token.kind !== 'ident' && token.kind !== 'string') fail(token.line, `expected a key, found ${describe(token)}`);
      this.position++;
      const labels: string[] = [];
      while (this.peek().kind === 'string') labels.push(this.next().text);
      const after = this.next();
      let value: HclValue;
      if (this.isPunct(after, '{')) {
        value = this.objectRest(depth + 1);
      } else if (this.isPunct(after, '=') && labels.length === 0) {
        value = this.value(depth + 1);
      } else {
        fail(after.line, `expected "{" or "=" after ${JSON.stringify(token.text)}, found ${describe(after)}`);
      }
      entries.push({ key: token.text, labels, value, line: token.line });
      if (this.isPunct(this.peek(), ',')) this.position++;
    }
  }

  private value(depth: number): HclValue {
    if (depth > MAX_NESTING) fail(this.peek().line, 'nesting too deep');
    const token = this.next();
    if (token.kind === 'string') return token.text;
    if (token.kind === 'number') return Number(token.text);
    if (token.kind === 'ident' && (token.text === 'true' || token.text === 'false')) return token.text === 'true';
    if (this.isPunct(token, '{')) return this.objectRest(depth);
    if (!this.isPunct(token, '[')) fail(token.line, `expected a value, found ${describe(token)}`);
    const items: HclValue[] = [];
    while (!this.isPunct(this.peek(), ']')) {
      items.push(this.value(depth + 1));
      if (this.isPunct(this.peek(), ',')) this.position++;
      else if (!this.isPunct(this.peek(), ']')) fail(this.peek().line, `expected "," or "]", found ${describe(this.peek())}`);
    }
    this.position++;
    return items;
  }

  private objectRest(depth: number): HclObject {
    const entries = this.body(depth, '}');
    this.position++;
    return new HclObject(entries);
  }

  private peek(): Token {
    return this.tokens[this.position]!;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind === 'eof') fail(token.line, 'unexpected end of input');
    this.position++;
    return token;
  }

  private isPunct(token: Token, text: string): boolean {
    return token.kind === 'punct' && token.text === text;
  }
}

function describe(token: Token): string {
  return token.kind === 'eof' ? 'end of input' : JSON.stringify(token.text);
}

/** Parses HCL text into its top-level entries; throws InvalidRequest naming the line of the first problem. */
export function parseHcl(text: string): HclEntry[] {
  return new Parser(tokenize(text)).body(0, 'eof');
}
