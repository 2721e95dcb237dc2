// What the LIST shim refuses, byte by byte, and what it must still take: everything node:http's parser could read
// otherwise than the shim is refused (the shim hands node:http a NUL in place of the refused byte, and node:http answers
// 400 and closes), and nothing that parser reads the one way the shim reads it is.
import { describe, expect, it } from 'vitest';
import { ListMethodRewriter } from '../../../src/adapters/http/list-method.js';

/** Feeds `input` a byte at a time and all at once; answers what was passed on and the refusal, which must agree. */
function rewrite(input: string): { out: string; refusal: string | undefined } {
  const results = [1, input.length + 1].map((step) => {
    const rewriter = new ListMethodRewriter();
    const out: Buffer[] = [];
    for (let at = 0; at < input.length; at += step)
      out.push(...rewriter.push(Buffer.from(input.slice(at, at + step), 'latin1')));
    return { out: Buffer.concat(out).toString('latin1'), refusal: rewriter.refusal };
  });
  expect(results[0]).toEqual(results[1]);
  return results[1]!;
}

const head = (lines: string) => `POST /v1/a HTTP/1.1\r\nHost: x\r\n${lines}`;
const chunked = (body: string) => head(`Transfer-Encoding: chunked\r\n\r\n${body}`);
const then = 'LIST /v1/next HTTP/1.1\r\n\r\n';

describe('refused, with nothing passed on after the refused byte but NUL', () => {
  it.each([
    ['a tab after the method', 'LIST\t/a HTTP/1.1\r\n', '', /invalid character in the method/],
    ['a CRLF inside the method', 'GE\r\nT /a HTTP/1.1\r\n', 'GE', /invalid character in the method/],
    ['a request line starting with a space', ' /a HTTP/1.1\r\n', '', /without a method/],
    ['two spaces before the target', 'GET  /a HTTP/1.1\r\n', 'GET ', /without a target/],
    ['a DEL in the target', 'GET /a\x7f HTTP/1.1\r\n', 'GET /a', /invalid character in the request target/],
    ['a request line without a version (HTTP/0.9)', 'GET /a\r\n', 'GET /a', /invalid character in the request target/],
    ['HTTP/2.0', 'GET /a HTTP/2.0\r\n', 'GET /a HTTP/', /not ending in HTTP\/1\.0 or HTTP\/1\.1 and CRLF/],
    ['HTTP/1.2', 'GET /a HTTP/1.2\r\n', 'GET /a HTTP/1.', /not ending in HTTP\/1\.0 or HTTP\/1\.1 and CRLF/],
    ['HTTP/1.?', 'GET /a HTTP/1.?\r\n', 'GET /a HTTP/1.', /not ending in HTTP\/1\.0 or HTTP\/1\.1 and CRLF/],
    [
      'a space after the version',
      'GET /a HTTP/1.1 \r\n',
      'GET /a HTTP/1.1',
      /not ending in HTTP\/1\.0 or HTTP\/1\.1 and CRLF/,
    ],
    [
      'a bare CR after the version',
      'GET /a HTTP/1.1\r\r\n',
      'GET /a HTTP/1.1\r',
      /not ending in HTTP\/1\.0 or HTTP\/1\.1 and CRLF/,
    ],
    [
      'a bare LF after the version',
      'GET /a HTTP/1.1\nHost: x\n\n',
      'GET /a HTTP/1.1',
      /not ending in HTTP\/1\.0 or HTTP\/1\.1 and CRLF/,
    ],
    ['a header line ended by a bare LF', head('X-A: b\nContent-Length: 5\n\n'), head('X-A: b'), /bare LF/],
    ['headers ended by a bare LF', head('\n'), head(''), /bare LF/],
    ['obs-fold', head('X-A: b\r\n c\r\n\r\n'), head('X-A: b\r\n'), /obs-fold/],
    ['a tab at the start of a line', head('X-A: b\r\n\tc\r\n\r\n'), head('X-A: b\r\n'), /obs-fold/],
    ['a space before the colon', head('Content-Length : 5\r\n\r\n'), head('Content-Length'), /header name/],
    ['a line that starts with a colon', head(': b\r\n\r\n'), head(''), /header name/],
    ['a header line without a colon', head('NoColon\r\n\r\n'), head('NoColon'), /header name/],
    ['a NUL in a value', head('X-A: b\0c\r\n\r\n'), head('X-A: b'), /control character in a header value/],
    ['a DEL in a value', head('X-A: b\x7fc\r\n\r\n'), head('X-A: b'), /control character in a header value/],
    ['a CR inside a value', head('X-A: b\rc\r\n\r\n'), head('X-A: b\r'), /CR not followed by LF in a header line/],
    ['a CR not followed by LF after the headers', head('\rX'), head('\r'), /end of the headers/],
    [
      'two Content-Length headers',
      head('Content-Length: 1\r\nContent-Length: 1\r\n\r\nx'),
      head('Content-Length: 1\r\nContent-Length: 1\r'),
      /repeated or conflicting/,
    ],
    [
      'Content-Length, then Transfer-Encoding',
      head('Content-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n'),
      head('Content-Length: 1\r\nTransfer-Encoding: chunked\r'),
      /repeated or conflicting/,
    ],
    [
      'Transfer-Encoding, then Content-Length',
      head('Transfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n'),
      head('Transfer-Encoding: chunked\r\nContent-Length: 1\r'),
      /repeated or conflicting/,
    ],
    [
      'two Transfer-Encoding headers',
      head('Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n'),
      head('Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r'),
      /repeated or conflicting/,
    ],
    [
      'a coding before chunked',
      head('Transfer-Encoding: gzip, chunked\r\n\r\n'),
      head('Transfer-Encoding: gzip, chunked\r'),
      /other than chunked/,
    ],
    [
      'a Content-Length with a sign',
      head('Content-Length: -1\r\n\r\n'),
      head('Content-Length: -1\r'),
      /not a number of bytes/,
    ],
    ['an empty Content-Length', head('Content-Length: \r\n\r\n'), head('Content-Length: \r'), /not a number of bytes/],
    [
      'a Content-Length list',
      head('Content-Length: 5, 5\r\n\r\n'),
      head('Content-Length: 5, 5\r'),
      /not a number of bytes/,
    ],
    [
      'a space inside a Content-Length',
      head('Content-Length: 1 2\r\n\r\n'),
      head('Content-Length: 1 2\r'),
      /not a number of bytes/,
    ],
    [
      'a Content-Length in hex',
      head('Content-Length: 0x10\r\n\r\n'),
      head('Content-Length: 0x10\r'),
      /not a number of bytes/,
    ],
    [
      'a Content-Length with an exponent',
      head('Content-Length: 1e1\r\n\r\n'),
      head('Content-Length: 1e1\r'),
      /not a number of bytes/,
    ],
    [
      'a Content-Length of 2^53',
      head('Content-Length: 9007199254740992\r\n\r\n'),
      head('Content-Length: 9007199254740992\r'),
      /not a number of bytes/,
    ],
    ['a chunk size line without a size', chunked(';a\r\n'), chunked(''), /does not start with a hex digit/],
    ['a space before a chunk size', chunked(' 5\r\n'), chunked(''), /does not start with a hex digit/],
    ['a space after a chunk size', chunked('5 \r\n'), chunked('5'), /invalid character after a chunk size/],
    ['a chunk size ended by a bare LF', chunked('5\nabcde\r\n'), chunked('5'), /invalid character after a chunk size/],
    ['a chunk size of 2^53', chunked('20000000000000\r\n'), chunked('2000000000000'), /chunk size too large/],
    [
      'a chunk size past 2^53 by its last digit',
      chunked('20000000000001\r\n'),
      chunked('2000000000000'),
      /chunk size too large/,
    ],
    [
      'a bare LF in a chunk extension',
      chunked('5;a\nabcde\r\n'),
      chunked('5;a'),
      /control character in a chunk extension/,
    ],
    [
      'a DEL in a chunk extension',
      chunked('5;a\x7f\r\nabcde\r\n'),
      chunked('5;a'),
      /control character in a chunk extension/,
    ],
    ['a chunk size line ended by a bare CR', chunked('5\rabcde'), chunked('5\r'), /chunk size line not ended by CRLF/],
    [
      'chunk data running past its size',
      chunked('5\r\nabcdef\r\n'),
      chunked('5\r\nabcde'),
      /chunk data not followed by CRLF/,
    ],
    [
      'chunk data followed by a bare LF',
      chunked('5\r\nabcde\n0\r\n\r\n'),
      chunked('5\r\nabcde'),
      /chunk data not followed by CRLF/,
    ],
    [
      'chunk data followed by a bare CR',
      chunked('5\r\nabcde\rX'),
      chunked('5\r\nabcde\r'),
      /chunk data not followed by CRLF/,
    ],
    [
      'a Content-Length in the trailers',
      chunked('0\r\nContent-Length: 5\r\n\r\n'),
      chunked('0\r\nContent-Length: 5\r'),
      /content-length header in the trailers/,
    ],
    [
      'a Transfer-Encoding in the trailers',
      chunked('0\r\nTransfer-Encoding: chunked\r\n\r\n'),
      chunked('0\r\nTransfer-Encoding: chunked\r'),
      /transfer-encoding header in the trailers/,
    ],
    [
      'an Upgrade in the trailers',
      chunked('0\r\nUpgrade: x\r\n\r\n'),
      chunked('0\r\nUpgrade: x\r'),
      /upgrade header in the trailers/,
    ],
    ['a bare LF in the trailers', chunked('0\r\nX-T: 1\n\r\n'), chunked('0\r\nX-T: 1'), /bare LF/],
  ])('%s', (_name, input, passed, reason) => {
    const { out, refusal } = rewrite(input + then);
    expect(refusal).toMatch(reason);
    expect(out).toBe(`${passed}\0`);
  });

  it('a framing header longer than 256 bytes, and not one of exactly 256', () => {
    const value = (size: number) => `${' '.repeat(size - 1)}5`;
    expect(rewrite(head(`Content-Length:${value(256)}\r\n\r\nabcde${then}`)).refusal).toBeUndefined();
    expect(rewrite(head(`Content-Length:${value(257)}\r\n\r\nabcde`))).toEqual({
      out: `${head(`Content-Length:${value(257).slice(0, 256)}`)}\0`,
      refusal: 'a content-length header longer than 256 bytes',
    });
    expect(rewrite(head(`Transfer-Encoding:${' '.repeat(9000)}chunked\r\n\r\n`)).refusal).toBe(
      'a transfer-encoding header longer than 256 bytes',
    );
    // Other headers may be as long as node:http lets them be.
    expect(rewrite(head(`X-Long: ${'a'.repeat(9000)}\r\n\r\n${then}`)).out).toContain('GET /v1/next?list=true');
  });
});

describe('taken, as node:http takes it', () => {
  const next = 'GET /v1/next?list=true HTTP/1.1\r\n\r\n';
  it.each([
    ['HTTP/1.0', 'GET /a HTTP/1.0\r\n\r\n'],
    ['empty lines before a request, bare LF and CR among them', '\r\n\n\rGET /a HTTP/1.1\r\n\r\n'],
    ['a Content-Length wrapped in spaces and tabs', head('Content-Length:\t 5 \t\r\n\r\nabcde')],
    ['a Content-Length with leading zeros', head('Content-Length: 0005\r\n\r\nabcde')],
    ['the largest Content-Length kept exact', head('Content-Length: 9007199254740991\r\n\r\n')],
    ['chunked in capitals', head('Transfer-Encoding: CHUNKED\r\n\r\n5\r\nabcde\r\n0\r\n\r\n')],
    [
      'hex sizes in both cases, with leading zeros and extensions',
      chunked('0A;a=b;c="d;\\"e"\r\n0123456789\r\n00b\r\nabcdefghijk\r\n000\r\n\r\n'),
    ],
    ['trailers', chunked('1\r\nx\r\n0\r\nX-T: 1\r\nX-U:\r\n\r\n')],
    ['spaces and tabs in a quoted chunk extension', chunked('3;a="b c\td"\r\nabc\r\n0\r\n\r\n')],
    ['the largest chunk size kept exact', chunked('1fffffffffffff\r\n')],
    ['obs-text and tabs in values', head('X-A: caf\xe9\tcr\xe8me\r\n\r\n')],
    ['a name that only starts like a framing header', head('Transfer-Encodingx: gzip\r\nContent-Lengths: x\r\n\r\n')],
  ])('%s', (_name, input) => {
    const complete = !input.endsWith('1fffffffffffff\r\n') && !input.endsWith('9007199254740991\r\n\r\n');
    const { out, refusal } = rewrite(input + then);
    expect(refusal).toBeUndefined();
    expect(out).toBe(input + (complete ? next : then));
  });

  it('holds back only a method that may still be LIST, so node:http sees every other request start at once', () => {
    const rewriter = new ListMethodRewriter();
    const text = (input: string) => Buffer.concat(rewriter.push(Buffer.from(input))).toString();
    expect(text('LI')).toBe('');
    expect(text('S')).toBe('');
    expect(text('T /a')).toBe('GET /a');
    expect(text(' HTTP/1.1\r\n\r\nPOS')).toBe('?list=true HTTP/1.1\r\n\r\nPOS');
    expect(text('T /b HTTP/1.1\r\n\r\nLO')).toBe('T /b HTTP/1.1\r\n\r\nLO');
  });

  it('rewrites a LIST with a query to &list=true, and leaves LISTS and LIS alone', () => {
    expect(rewrite('LIST /a?b=c HTTP/1.1\r\n\r\n').out).toBe('GET /a?b=c&list=true HTTP/1.1\r\n\r\n');
    expect(rewrite('LISTS /a HTTP/1.1\r\n\r\nLIS /a HTTP/1.1\r\n\r\n').out).toBe(
      'LISTS /a HTTP/1.1\r\n\r\nLIS /a HTTP/1.1\r\n\r\n',
    );
  });

  it('stops reading the stream after an upgrade or a CONNECT, and only then', () => {
    for (const first of ['GET /a HTTP/1.1\r\nUpgrade: websocket\r\n\r\n', 'CONNECT h:1 HTTP/1.1\r\n\r\n']) {
      expect(rewrite(first + then)).toEqual({ out: first + then, refusal: undefined });
    }
    for (const first of [
      'GET /a HTTP/1.1\r\nUpgrades: x\r\n\r\n',
      'CONNECTS h:1 HTTP/1.1\r\n\r\n',
      'CONNEC h:1 HTTP/1.1\r\n\r\n',
    ]) {
      expect(rewrite(first + then).out).toBe(first + next);
    }
  });
});
