// One delivery attempt: an HTTP POST of the signed event, bounded in time and in the answer read, to an address the
// target policy permits, following no redirect. Any answer but 2xx, or no answer in time, is a failed attempt.
import http from 'node:http';
import https from 'node:https';
import { RefusedTarget, type TargetPolicy } from './target-policy.js';
import { signatureOf } from './signature.js';

/** What the receiver may send back before the rest is dropped: only its status matters. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** One signed POST to make. */
export interface DeliveryRequest {
  url: string;
  secret: string;
  eventId: string;
  body: string;
  /** Unix seconds: what the signature covers and `X-Strongroom-Timestamp` says. */
  timestamp: number;
}

/** How an attempt ended: `error` says why it failed, without the secret (it is never part of the request line). */
export type DeliveryOutcome = { ok: true; status: number } | { ok: false; error: string };

/** Makes one attempt; never rejects. The whole attempt, connection included, ends after `timeoutMs`. */
export function deliver(policy: TargetPolicy, request: DeliveryRequest, timeoutMs: number): Promise<DeliveryOutcome> {
  let url: URL;
  try {
    url = policy.parse(request.url);
  } catch (error) {
    return Promise.resolve({ ok: false, error: (error as Error).message });
  }
  if (policy.literalRefused(url))
    return Promise.resolve({ ok: false, error: `${url.hostname} is an internal address` });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: DeliveryOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      outgoing.destroy();
      resolve(outcome);
    };
    const client = url.protocol === 'https:' ? https : http;
    const outgoing = client.request(url, {
      method: 'POST',
      lookup: policy.lookupFor(url),
      agent: false,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'strongroom-webhook',
        'x-strongroom-event-id': request.eventId,
        'x-strongroom-timestamp': String(request.timestamp),
        'x-strongroom-signature': signatureOf(request.secret, request.timestamp, request.body),
      },
    });
    const deadline = setTimeout(() => finish({ ok: false, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
    deadline.unref();
    outgoing.on('error', (error) =>
      finish({ ok: false, error: error instanceof RefusedTarget ? error.message : `${error.message}` }),
    );
    outgoing.on('response', (answer) => {
      const status = answer.statusCode ?? 0;
      let read = 0;
      answer.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) done();
      });
      const done = () =>
        finish(
          status >= 200 && status < 300
            ? { ok: true, status }
            : { ok: false, error: status >= 300 && status < 400 ? `redirect ${status} refused` : `answered ${status}` },
        );
      answer.on('end', done);
      answer.on('error', done);
    });
    outgoing.end(request.body);
  });
}
