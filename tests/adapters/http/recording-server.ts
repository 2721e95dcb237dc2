// A node:http server that records each request its parser delivers on a connection (method, target, body bytes, and
// whether the message was complete), for comparing what plain node:http and the LIST shim make of the same bytes.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { acceptListMethod } from '../../../src/adapters/http/list-method.js';

export interface Seen {
  method: string;
  url: string;
  body: string;
  complete: boolean;
  upgrade: boolean;
}

export interface Outcome {
  requests: Seen[];
  /** The parser's error codes, in order: node:http refused the stream there. */
  errors: string[];
}

export interface RecordingServer {
  send(bytes: Buffer): Promise<Outcome>;
  close(): Promise<void>;
}

export async function startRecordingServer({ shim }: { shim: boolean }): Promise<RecordingServer> {
  let current: Outcome = { requests: [], errors: [] };
  const plain = http.createServer((req, res) => {
    const seen: Seen = {
      method: req.method ?? '',
      url: req.url ?? '',
      body: '',
      complete: false,
      upgrade: req.headers.upgrade !== undefined,
    };
    current.requests.push(seen);
    // The parser hands every body byte to push() as it reads it, and null at the message's end; recording there
    // keeps what was parsed even when a later parse error destroys the request before its 'data' events run.
    const push = req.push.bind(req);
    req.push = (chunk: Buffer | null) => {
      if (chunk === null) seen.complete = true;
      else seen.body += chunk.toString('latin1');
      return push(chunk);
    };
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  // Answer every request before closing when the client half-closes, so the order of events does not decide what is seen.
  (plain as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  plain.on('clientError', (error: NodeJS.ErrnoException, socket: net.Socket) => {
    current.errors.push(error.code ?? 'unknown');
    socket.destroy();
  });
  const server = shim ? acceptListMethod(plain) : plain;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    async send(bytes) {
      current = { requests: [], errors: [] };
      const outcome = current;
      await new Promise<void>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
        socket.resume();
        socket.on('error', () => undefined);
        socket.on('close', () => resolve());
        socket.setTimeout(5000, () => reject(new Error('the server neither answered nor closed')));
      });
      return outcome;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
