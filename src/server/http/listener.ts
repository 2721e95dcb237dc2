// Where connections come in: a TCP listener (or a TLS one, which decrypts first) that admits a bounded number of
// connections at once and hands each to the node:http server. The HTTP server never listens itself, so plain and TLS
// connections take the same way in, LIST shim and timeouts included.
import type http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';

export interface ListenerOptions {
  /** PEM certificate chain and key: serve HTTPS. */
  tls?: { cert: string | Buffer; key: string | Buffer } | undefined;
  maxConnections: number;
  /** Time allowed for a TLS handshake: a connection that never completes one is no HTTP client yet. */
  handshakeTimeoutMs: number;
}

/** Answers a connection past the bound with 503 and closes it; what the client sends meanwhile is read and dropped. */
function refuse(socket: net.Socket, maxConnections: number): void {
  const body = `${JSON.stringify({ errors: [`too many connections: this server serves at most ${maxConnections} at once`] })}\n`;
  socket.on('error', () => undefined);
  // Reading on keeps the close from resetting the connection under the answer; an idle client is cut off soon.
  socket.resume();
  socket.setTimeout(1000, () => socket.destroy());
  socket.end(
    'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nCache-Control: no-store\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

export function createListener(server: http.Server, options: ListenerOptions): net.Server {
  let open = 0;
  const admit = (socket: net.Socket) => {
    if (open >= options.maxConnections) return refuse(socket, options.maxConnections);
    open++;
    socket.once('close', () => open--);
    server.emit('connection', socket);
  };
  // As http.Server itself listens: half-open connections are the HTTP server's to close, small writes go out at once.
  if (!options.tls) return net.createServer({ allowHalfOpen: true, noDelay: true }, admit);
  const listener = tls.createServer({ ...options.tls, handshakeTimeout: options.handshakeTimeoutMs }, admit);
  // Connections still in their handshake count too: no answer can reach them before it, so past the bound they are
  // not accepted at all.
  listener.maxConnections = options.maxConnections;
  return listener;
}

/**
 * node:http starts enforcing headersTimeout and requestTimeout, and tracking the connections that
 * closeIdleConnections() and closeAllConnections() reach, when it starts listening; it never does here, so it is told.
 * Without this a client over TLS could trickle a head forever.
 */
export function trackConnections(server: http.Server): void {
  server.emit('listening');
}
