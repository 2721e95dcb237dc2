// fast-check arbitraries of HTTP/1.1 request streams for the LIST shim's differential test: pipelined messages made of
// the pieces a smuggler varies (line ends, framing headers in every spelling, chunk sizes, extensions, trailers,
// bodies that look like requests), then cut, duplicated and spliced at random; and a soup of random tokens.
import fc from 'fast-check';

const pick = <T>(...values: T[]) => fc.constantFrom(...values);
const weighted = <T>(...choices: [number, fc.Arbitrary<T>][]) =>
  fc.oneof(...choices.map(([weight, arbitrary]) => ({ weight, arbitrary })));
// Mostly well formed, so that streams get past the first line often enough to reach the framing.
const often = <T>(usual: T, ...rare: T[]) => weighted([9, fc.constant(usual)], [1, pick(...rare)]);

// Every message has many line ends: each is rarely wrong, or few messages would get as far as their body.
const eol = weighted([40, fc.constant('\r\n')], [1, pick('\n', '\r', '\r\r\n', '\n\r')]);
const goodLine = fc
  .tuple(
    pick('LIST', 'GET', 'POST', 'DELETE'),
    pick('/v1/secret/metadata/', '/v1/a?after=b', '/v1/x#f?y', '/LIST'),
    often('HTTP/1.1', 'HTTP/1.0'),
  )
  .map(([method, target, version]) => `${method} ${target} ${version}\r\nHost: x\r\n`);
const badLine = fc
  .tuple(
    often('LIST', 'GET', 'HEAD', 'CONNECT', 'LISTS', 'LIS', 'list', 'LI\0ST', ''),
    often(' ', '  ', '\t', ''),
    often('/v1/a', '*', '/a b', '/\x7f', '', '/\xe9', 'http://h/p'),
    often(' ', '  ', ''),
    often('HTTP/1.1', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.2', 'HTTP/1.1 ', 'http/1.1', ''),
    eol,
  )
  .map((parts) => parts.join(''));
const requestLine = weighted([6, goodLine], [1, badLine]);

// `{n}` stands for the body's true length, `{n+1}` and `{n-1}` for lengths that are off by one. Headers padded past
// 8 KiB are weighted up: cutting them short is how the shim was once made to misread the framing.
const lengthHeader = weighted(
  [3, fc.constant('Content-Length: {n}')],
  [3, fc.constant(`Content-Length: ${'0'.repeat(9000)}{n}`)],
  [
    1,
    pick(
      'Content-Length:{n}',
      'content-length:  {n}  ',
      'Content-Length:\t{n}\t',
      'Content-Length: 0{n}',
      'Content-Length: {n+1}',
      'Content-Length: {n-1}',
      'Content-Length: -1',
      'Content-Length: 1e1',
      'Content-Length: 0x1',
      'Content-Length: ',
      'Content-Length: 99999999999999999999',
      'Content-Length : {n}',
      'Content-Length: {n}, {n}',
    ),
  ],
);
const codingHeader = weighted(
  [3, fc.constant('Transfer-Encoding: chunked')],
  [3, fc.constant(`Transfer-Encoding:${' '.repeat(9000)}chunked`)],
  [
    1,
    pick(
      'transfer-encoding: CHUNKED',
      'Transfer-Encoding:  chunked  ',
      'Transfer-Encoding: chunked\t',
      'Transfer-Encoding: gzip, chunked',
      'Transfer-Encoding: chunked, gzip',
      'Transfer-Encoding: identity',
      'Transfer-Encoding : chunked',
      'Transfer-Encodingx: chunked',
      'Transfer-Encoding: "chunked"',
    ),
  ],
);
const otherHeader = weighted(
  [
    6,
    pick(
      'Host: x',
      'X-Note: LIST /v1/evil HTTP/1.1',
      'Connection: keep-alive',
      'Expect: 100-continue',
      'X-Empty:',
      'X-High: \xe9',
    ),
  ],
  [
    1,
    pick(
      ' folded',
      '\tfolded',
      'X-Nul: a\0b',
      'X-Cr: a\rb',
      'NoColon',
      ': empty',
      'Upgrade: websocket',
      'Connection: upgrade',
      'Connection: close',
      'Expect: nothing',
    ),
  ],
);
const line = (header: fc.Arbitrary<string>) => fc.tuple(header, eol).map(([text, end]) => text + end);
// Mostly one framing header, which node:http accepts, so that the body's framing is what decides; sometimes two.
const framing = weighted(
  [2, fc.constant({ lines: [] as string[], chunked: false })],
  [3, line(lengthHeader).map((text) => ({ lines: [text], chunked: false }))],
  [3, line(codingHeader).map((text) => ({ lines: [text], chunked: true }))],
  [
    1,
    fc
      .tuple(line(lengthHeader), line(codingHeader), fc.boolean())
      .map(([a, b, chunked]) => ({ lines: [a, b], chunked })),
  ],
);

// Bodies that are requests themselves, which a shim that misreads the framing would rewrite; a leading CRLF lines
// one up behind a chunk size line read as a request line.
const body = weighted(
  [1, fc.string({ maxLength: 24 })],
  [
    2,
    pick(
      'LIST /v1/evil HTTP/1.1\r\nHost: x\r\n\r\n',
      '\r\nLIST /v1/evil HTTP/1.1\r\nHost: x\r\n\r\n',
      '0\r\n\r\nLIST /v1/evil HTTP/1.1\r\n\r\n',
      '\r\n',
      '',
    ),
  ],
);

const chunking = fc.record({
  sizes: fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 3 }),
  digits: often(
    (size: number) => size.toString(16),
    (size) => size.toString(16).toUpperCase(),
    (size) => `000000000000000000${size.toString(16)}`,
    (size) => `${size + 1}`,
    (size) => `0x${size}`,
    (size) => ` ${size}`,
  ),
  extension: often('', ';a=b', ';a="x;y\\"z"', '; a', ';a=b c', ';\0', ';a\n'),
  sizeEnd: eol,
  dataEnd: eol,
  trailer: often('', 'X-T: 1\r\n', 'Content-Length: 5\r\n', 'X-T: 1\n', 'Upgrade: x\r\n'),
});

function chunked(text: string, how: typeof chunking extends fc.Arbitrary<infer C> ? C : never): string {
  let rest = text;
  let out = '';
  for (const size of [...how.sizes, Number.POSITIVE_INFINITY]) {
    if (rest === '') break;
    const piece = rest.slice(0, size);
    rest = rest.slice(piece.length);
    out += `${how.digits(piece.length)}${how.extension}${how.sizeEnd}${piece}${how.dataEnd}`;
  }
  return `${out}0${how.extension}${how.sizeEnd}${how.trailer}\r\n`;
}

const message = fc
  .record({
    line: requestLine,
    framing,
    others: fc.array(line(otherHeader), { maxLength: 2 }),
    at: fc.nat(),
    headEnd: eol,
    body,
    chunking,
  })
  .map(({ line: first, framing: { lines, chunked: encode }, others, at, headEnd, body: text, chunking: how }) => {
    const headers = [...others];
    headers.splice(at % (headers.length + 1), 0, ...lines);
    const n = text.length;
    const head = (first + headers.join('') + headEnd)
      .replaceAll('{n}', String(n))
      .replaceAll('{n+1}', String(n + 1))
      .replaceAll('{n-1}', String(Math.max(0, n - 1)));
    return head + (encode ? chunked(text, how) : text);
  });

const mutation = fc.record({
  at: fc.nat(),
  op: pick('delete', 'insert', 'duplicate'),
  byte: pick('\r', '\n', ' ', '\t', '\0', ':', '0', 'L', ';'),
});

type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(text: string, { at, op, byte }: Mutation): string {
  const i = at % (text.length + 1);
  if (op === 'delete') return text.slice(0, i) + text.slice(i + 1);
  if (op === 'insert') return text.slice(0, i) + byte + text.slice(i);
  return text.slice(0, i) + text.slice(i, i + 8) + text.slice(i);
}

/** Pipelined messages, mostly well formed, sometimes with a few random cuts and insertions. */
export const requestStream = fc
  .tuple(
    often('', '\r\n', '\n', '\r'),
    fc.array(message, { minLength: 1, maxLength: 4 }),
    weighted([2, fc.constant([] as Mutation[])], [1, fc.array(mutation, { minLength: 1, maxLength: 2 })]),
  )
  .map(([before, messages, mutations]) => mutations.reduce(mutate, before + messages.join('')));

/** Random sequences of the tokens requests are made of. */
export const tokenSoup = fc
  .array(
    pick(
      'LIST',
      'GET',
      ' ',
      '/v1/a',
      '?',
      'HTTP/1.1',
      '\r\n',
      '\r\n',
      '\n',
      '\r',
      'Host: x',
      'Content-Length: ',
      'Transfer-Encoding: chunked',
      '0',
      '5',
      '1a',
      ';x',
      'abc',
      ':',
      '\0',
      '\t',
    ),
    { maxLength: 40 },
  )
  .map((tokens) => tokens.join(''));
