// The signature a receiver checks: HMAC-SHA256, keyed by the webhook's secret, of "<timestamp>.<body>", so that a
// captured delivery cannot be replayed with another time, nor its body changed.
import { createHmac } from 'node:crypto';

/** The value of the `X-Strongroom-Signature` header for a body sent at `timestamp` (Unix seconds). */
export function signatureOf(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}
