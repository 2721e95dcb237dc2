// The HCL reader on its own: what it reads, which line a problem is reported on, and the nesting bound.
import { describe, expect, it } from 'vitest';
import { HclObject, MAX_NESTING, parseHcl, type HclEntry } from '../../src/acl/hcl.js';
import { InvalidRequest } from '../../src/lib/errors.js';

/** Entries without their line numbers, objects as nested entry lists. */
function shape(entries: HclEntry[]): unknown {
  const value = (item: unknown): unknown =>
    item instanceof HclObject ? shape(item.entries) : Array.isArray(item) ? item.map(value) : item;
  return entries.map(({ key, labels, value: item }) => [key, labels, value(item)]);
}

describe('parseHcl', () => {
  it('reads numbers, booleans, words as keys, quoted keys, labels, lists and nested objects', () => {
    const text =
      'n = 12\nf = -1.25\nt = true\nno = false\nkey_1.a-b = "v"\n"quoted key" = 1\nblock "x" "y" { inner = { deep = ["a", 2, [true]] } }';
    expect(shape(parseHcl(text))).toEqual([
      ['n', [], 12],
      ['f', [], -1.25],
      ['t', [], true],
      ['no', [], false],
      ['key_1.a-b', [], 'v'],
      ['quoted key', [], 1],
      ['block', ['x', 'y'], [['inner', [], [['deep', [], ['a', 2, [true]]]]]]],
    ]);
  });

  it('reads a word longer than any buffer whole', () => {
    const long = `k${'x'.repeat(1000)}`;
    expect(shape(parseHcl(`${long} = 1`))).toEqual([[long, [], 1]]);
  });

  it('skips comments of every style, up to the end of their line or block', () => {
    const text = '# a = 1\n// b = 2\n/* c = 3 */ d = 4 /* e\n= 5 */\nf = 6 # g = 7';
    expect(shape(parseHcl(text))).toEqual([
      ['d', [], 4],
      ['f', [], 6],
    ]);
  });

  it.each([
    // The line of a problem counts the lines of the comments before it.
    ['/* one\ntwo */\n\n@', 'line 4: unexpected character "@"'],
    ['# one\n// two\n@', 'line 3: unexpected character "@"'],
    ['/*/ a = 1', 'line 1: unterminated comment'],
    ['a = "open\n"', 'line 1: unterminated string'],
    ['a = "\\x"', 'line 1: invalid string "\\x"'],
    ['a = [1,', 'line 1: unexpected end of input'],
    ['a = [1, 2', 'line 1: expected "," or "]", found end of input'],
    ['path "a"', 'line 1: unexpected end of input'],
    ['a = read', 'line 1: expected a value, found "read"'],
    ['a = }', 'line 1: expected a value, found "}"'],
    ['a = ["x" "]"]', 'line 1: expected "," or "]", found "]"'],
    ['a = 1 }', 'line 1: expected a key, found "}"'],
    ['a\n=\n{\nb = 1\n', 'line 5: expected a key, found end of input'],
    ['1a = 2', 'line 1: expected a key, found "1"'],
    ['x = <<EOT\nhi\nEOT', 'line 1: heredoc strings are not supported'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseHcl(text)).toThrow(InvalidRequest);
    expect(() => parseHcl(text)).toThrow(`failed to parse policy: ${message}`);
  });

  describe(`nesting: ${MAX_NESTING} levels are read, one more is refused`, () => {
    // The top-level body is level 0; each object or list opens one more.
    const lists = (levels: number) => `a = ${'['.repeat(levels)}${']'.repeat(levels)}`;
    const objects = (levels: number) => `${'a { '.repeat(levels)}${'} '.repeat(levels)}`;
    // Each "{ b = [" opens two levels, so this one steps by two.
    const mixed = (levels: number) => `a = ${'{ b = ['.repeat(levels / 2)}${'] }'.repeat(levels / 2)}`;

    it.each([
      ['lists', lists, 1],
      ['objects', objects, 1],
      ['objects and lists', mixed, 2],
    ])('%s', (_, nested, step) => {
      expect(() => parseHcl(nested(MAX_NESTING))).not.toThrow();
      expect(() => parseHcl(nested(MAX_NESTING + step))).toThrow('nesting too deep');
    });
  });
});
