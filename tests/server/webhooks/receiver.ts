// A webhook receiver on loopback, as a user would write one: it checks each delivery's signature with node:crypto
// (HMAC-SHA256 of "<timestamp>.<body>", compared in constant time) and records what it got. Its answer can be changed
// while it runs: succeed, fail, redirect, or hold the request open without answering.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  id: string;
  timestamp: number;
  /** Whether the signature verified with the receiver's secret. */
  verified: boolean;
  body: { id: string; webhook: string; mount: string; path: string; operation: string; version: number; time: string };
  raw: string;
  /** The path the request was sent to. */
  path: string;
}

export type Behaviour = 'ok' | 'fail' | 'redirect' | 'hang';

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  behaviour: Behaviour;
  /** Requests held open by 'hang'. */
  held: http.ServerResponse[];
  /** Resolves once `count` deliveries were received (answered or not). */
  received(count: number, timeoutMs?: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

export function verify(secret: string, timestamp: string, body: string, header: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export async function startReceiver(secret: string, behaviour: Behaviour = 'ok'): Promise<Receiver> {
  const waiters: (() => void)[] = [];
  const receiver: Receiver = {
    url: '',
    deliveries: [],
    behaviour,
    held: [],
    async received(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.deliveries.length < count) {
        if (Date.now() > deadline)
          throw new Error(`expected ${count} deliveries, got ${receiver.deliveries.length} in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return receiver.deliveries;
    },
    close: () =>
      new Promise((resolve) => {
        for (const res of receiver.held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const timestamp = String(req.headers['x-strongroom-timestamp'] ?? '');
      receiver.deliveries.push({
        id: String(req.headers['x-strongroom-event-id']),
        timestamp: Number(timestamp),
        verified: verify(secret, timestamp, raw, String(req.headers['x-strongroom-signature'] ?? '')),
        body: JSON.parse(raw),
        raw,
        path: req.url ?? '',
      });
      for (const wake of waiters.splice(0)) wake();
      if (receiver.behaviour === 'hang') return void receiver.held.push(res);
      if (receiver.behaviour === 'redirect') return void res.writeHead(302, { location: '/elsewhere' }).end();
      res.writeHead(receiver.behaviour === 'ok' ? 204 : 500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
