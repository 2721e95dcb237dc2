import { InvalidRequest } from '../lib/errors.js';

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

// Sticky patterns, each matching at `lastIndex` only.
const LINE_REST = /[^\n]*/y;
// A string ends at its closing quote; a line break before it leaves it unterminated.
const STRING = /"(?:[^"\\\n]|\\.)*"/y;
const WORD = /(-?\d+(?:\.\d+)?)|[A-Za-z_][\w.-]*/y;

function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
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
      // The comment's line break is left for the next round, which counts it.
      i += matchAt(LINE_REST, text, i)![0].length;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      if (end === -1) fail(line, 'unterminated comment');
      line += text.slice(i, end).split('\n').length - 1;
      i = end + 2;
    } else if (char === '"') {
      const literal = matchAt(STRING, text, i)?.[0];
      if (literal === undefined) fail(line, 'unterminated string');
      tokens.push({ kind: 'string', text: decodeString(literal, line), line });
      i += literal.length;
    } else if (PUNCTUATION.has(char)) {
      tokens.push({ kind: 'punct', text: char, line });
      i++;
    } else {
      const word = matchAt(WORD, text, i);
      if (!word)
        fail(
          line,
          text.startsWith('<<', i)
            ? 'heredoc strings are not supported'
            : `unexpected character ${JSON.stringify(char)}`,
        );
      tokens.push({ kind: word[1] === undefined ? 'ident' : 'number', text: word[0], line });
      i += word[0].length;
    }
  }
  tokens.push({ kind: 'eof', text: 'end of input', line });
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
      if (closing === 'eof' ? token.kind === 'eof' : this.isPunct(token, closing)) return entries;
      if (token.kind !== 'ident' && token.kind !== 'string')
        fail(token.line, `expected a key, found ${describe(token)}`);
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
    // What is left is a word or punctuation, and no punctuation reads "true" or "false".
    if (token.text === 'true' || token.text === 'false') return token.text === 'true';
    if (this.isPunct(token, '{')) return this.objectRest(depth);
    if (!this.isPunct(token, '[')) fail(token.line, `expected a value, found ${describe(token)}`);
    const items: HclValue[] = [];
    while (!this.isPunct(this.peek(), ']')) {
      items.push(this.value(depth + 1));
      if (this.isPunct(this.peek(), ',')) this.position++;
      else if (!this.isPunct(this.peek(), ']'))
        fail(this.peek().line, `expected "," or "]", found ${describe(this.peek())}`);
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

/** A token as messages name it: the end of input by its text, anything else quoted. */
function describe(token: Token): string {
  return token.kind === 'eof' ? token.text : JSON.stringify(token.text);
}

/** Parses HCL text into its top-level entries; throws InvalidRequest naming the line of the first problem. */
export function parseHcl(text: string): HclEntry[] {
  return new Parser(tokenize(text)).body(0, 'eof');
}
