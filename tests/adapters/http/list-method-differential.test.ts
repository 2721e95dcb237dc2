// Differential test of the LIST shim against node:http itself: the same byte stream, sent to a shimmed listener and to
// a plain one, must yield the same requests (method, target, body) in the same order, apart from LIST arriving as
// `GET ?list=true`; or the shimmed listener refuses the stream, after a prefix of those requests. A shim that read the
// framing otherwise than node:http (and rewrote body bytes as a request line) would show here as a changed body or a
// request the plain listener never saw: the smuggling of the review's finding.
//
// Plain node:http refuses LIST outright, so its stream spells the method LINK instead: a method node:http knows, of
// the same length and with no effect on framing. Streams never contain LINK themselves, so the mapping is exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { requestStream, tokenSoup } from './http-streams.js';
import { startRecordingServer, type Outcome, type RecordingServer, type Seen } from './recording-server.js';

let plain: RecordingServer;
let shimmed: RecordingServer;

beforeAll(async () => {
  [plain, shimmed] = await Promise.all([startRecordingServer({ shim: false }), startRecordingServer({ shim: true })]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), shimmed?.close()]);
});

/** A request plain node:http saw, as it must arrive through the shim. */
function throughShim(seen: Seen): Seen {
  const url = seen.url.replaceAll('LINK', 'LIST');
  const body = seen.body.replaceAll('LINK', 'LIST');
  if (seen.method !== 'LINK') return { ...seen, url, body };
  return { ...seen, method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}list=true`, body };
}

/**
 * After an upgrade node:http stops parsing HTTP, and what it makes of the bytes already read depends on how the
 * socket delivered them (Node 20 drops the rest of that read when no 'upgrade' listener takes the connection): the
 * comparison ends with the first request that asks for one.
 */
function untilUpgrade(requests: Seen[]): Seen[] {
  const upgrade = requests.findIndex((seen) => seen.upgrade);
  return upgrade < 0 ? requests : requests.slice(0, upgrade + 1);
}

function expectSameOrRefused(through: Outcome, reference: Outcome): void {
  const expected = untilUpgrade(reference.requests.map(throughShim));
  const actual = untilUpgrade(through.requests);
  if (JSON.stringify(actual) === JSON.stringify(expected)) return;
  // Otherwise the shimmed listener refused the stream, after the same requests as the plain one.
  expect(through.errors.length, JSON.stringify({ actual, expected })).toBeGreaterThan(0);
  expect(actual.length).toBeLessThanOrEqual(expected.length);
  actual.forEach((seen, index) => {
    const wanted = expected[index]!;
    if (seen.complete) return void expect(seen).toEqual(wanted);
    // The last one may have been cut by the refusal within its body.
    expect(index).toBe(actual.length - 1);
    expect({ ...seen, body: '' }).toEqual({ ...wanted, body: '', complete: false });
    expect(wanted.body.startsWith(seen.body)).toBe(true);
  });
}

async function compare(text: string): Promise<void> {
  const reference = await plain.send(Buffer.from(text.replaceAll('LIST', 'LINK'), 'latin1'));
  const through = await shimmed.send(Buffer.from(text, 'latin1'));
  expectSameOrRefused(through, reference);
}

describe('the LIST shim reads every stream as node:http does', () => {
  /** Every stream `streams` makes, seeded, with LINK left out (it stands for LIST in the plain listener's streams). */
  const everyStream = (streams: fc.Arbitrary<string>, numRuns: number, seed: number) =>
    fc.assert(
      fc.asyncProperty(streams, async (text) => {
        fc.pre(!text.includes('LINK'));
        await compare(text);
      }),
      { numRuns, seed },
    );

  it('for pipelined requests with every spelling of framing, cut and spliced at random', () =>
    everyStream(requestStream, 400, 20260427));

  it('for random sequences of request tokens', () => everyStream(tokenSoup, 200, 20260428));

  it.each([
    [
      'a Content-Length padded with zeros past 8 KiB',
      `POST /v1/a HTTP/1.1\r\nHost: x\r\nContent-Length: ${'0'.repeat(9000)}24\r\n\r\nLIST /v1/b HTTP/1.1\r\nHost: x\r\n\r\n`,
    ],
    [
      'a Transfer-Encoding padded with spaces past 8 KiB',
      `POST /v1/a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:${' '.repeat(9000)}chunked\r\n\r\n1f\r\nLIST /v1/b HTTP/1.1\r\nHost: x\r\n\r\n\r\n0\r\n\r\n`,
    ],
    [
      'a chunked body that holds request lines',
      'POST /v1/a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1b\r\nLIST /v1/b HTTP/1.1\r\nHost: x\r\n\r\n0\r\n\r\nLIST /v1/c HTTP/1.1\r\nHost: x\r\n\r\n',
    ],
    ['a body after bare-LF headers', 'POST /v1/a HTTP/1.1\nHost: x\nContent-Length: 20\n\nLIST /v1/b HTTP/1.1\n\n'],
    [
      'two Content-Length headers',
      'POST /v1/a HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 20\r\n\r\nLIST /v1/b HTTP/1.1\r\n\r\n',
    ],
  ])('for %s', async (_name, text) => {
    await compare(text);
  });
});
