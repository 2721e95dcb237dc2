import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeBase64 } from '../../../src/lib/base64.js';

// The strict decoding the PKCS#7 field needs, written the slow obvious way: the fast path must agree with it on
// everything, in particular on the characters Buffer's decoder treats loosely (URL-safe ones, inner padding,
// characters beyond Latin-1 that it reads as their low byte, whitespace it skips).
const STRICT = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function reference(text: string, ignoreWhitespace: boolean): Buffer | undefined {
  const body = ignoreWhitespace ? text.replace(/\s+/g, '') : text;
  return STRICT.test(body) ? Buffer.from(body, 'base64') : undefined;
}

const TRICKY = [
  '=',
  '\n',
  '\r',
  ' ',
  '\t',
  '-',
  '_',
  '!',
  '.',
  '\u00e9',
  '\u00ff',
  '\u0142',
  '\u0141',
  '\u2028',
  '\u00a0',
  '\ud83d',
];
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Valid base64 of random bytes, wrapped at random columns, then changed at a few places by tricky characters. */
const nearlyValid = fc
  .record({
    bytes: fc.uint8Array({ maxLength: 200 }),
    width: fc.integer({ min: 1, max: 80 }),
    trailingLineFeed: fc.boolean(),
    edits: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...TRICKY, ...ALPHABET), fc.constantFrom('insert', 'replace')), {
      maxLength: 3,
    }),
  })
  .map(({ bytes, width, trailingLineFeed, edits }) => {
    const encoded = Buffer.from(bytes).toString('base64');
    let text = (encoded.match(new RegExp(`.{1,${width}}`, 'g')) ?? []).join('\n') + (trailingLineFeed ? '\n' : '');
    for (const [position, character, kind] of edits) {
      const at = text.length === 0 ? 0 : position % text.length;
      text = text.slice(0, at) + character + text.slice(kind === 'insert' ? at : at + 1);
    }
    return text;
  });

const anyText = fc
  .array(fc.constantFrom(...TRICKY, ...ALPHABET.slice(0, 8)), { maxLength: 24 })
  .map((characters) => characters.join(''));

describe('decodeBase64 (strict)', () => {
  it.each([true, false])(
    'agrees with the strict reference on nearly valid text (ignoreWhitespace %s)',
    (ignoreWhitespace) => {
      fc.assert(
        fc.property(fc.oneof(nearlyValid, anyText), (text) => {
          expect(decodeBase64(text, { ignoreWhitespace })).toEqual(reference(text, ignoreWhitespace));
        }),
        { numRuns: 3000 },
      );
    },
  );

  it.each([
    ['a character beyond Latin-1 whose low byte is a base64 letter', 'QUF\u0142'],
    ['URL-safe characters', 'QU-_'],
    ['padding inside', 'QQ==QUFB'],
    ['a skipped character making up the length of the padding', 'QUFC!Q=='],
    ['missing padding', 'QUFCQQ'],
    ['three pads', 'QQ==='],
  ])('refuses %s', (_name, text) => {
    expect(decodeBase64(text, { ignoreWhitespace: true })).toBeUndefined();
    expect(decodeBase64(text)).toBeUndefined();
  });

  it('accepts line feeds, other whitespace and padding at the end when whitespace is ignored', () => {
    expect(decodeBase64('QUFC\nQQ==\n', { ignoreWhitespace: true })?.toString()).toBe('AABA');
    expect(decodeBase64('QUFC\r\n QQ==\u2028', { ignoreWhitespace: true })?.toString()).toBe('AABA');
    expect(decodeBase64('QUFC\nQQ==')).toBeUndefined();
  });
});
