// A loopback TCP proxy that can cut a client off from its server the way networks do: a partition destroys open
// connections and accepts new ones without ever answering (a black hole), so a client waits out its own timeouts
// instead of being refused at once; a freeze stops forwarding on the open connections while both ends still see them
// open (a middlebox that dropped its state), and new connections work.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type PostgresServer } from './postgres.js';

export interface TcpProxy {
  /** The proxy's loopback port. */
  port: number;
  /** Destroys every open connection and black-holes new ones until `heal`. */
  partition(): void;
  heal(): void;
  /** Open connections go silent for good, with no close on either side; new ones are forwarded. */
  freeze(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let partitioned = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server: Server = createServer((client) => {
    track(client);
    if (partitioned) return;
    const upstream = connect(targetPort, '127.0.0.1');
    track(upstream);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream).pipe(client);
    client.on('close', () => (upstream.destroy(), pairs.delete(pair)));
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    partition() {
      partitioned = true;
      for (const socket of sockets) socket.destroy();
    },
    heal() {
      partitioned = false;
      for (const socket of sockets) socket.destroy();
    },
    freeze() {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
      pairs.clear();
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A throwaway PostgreSQL and a proxy in front of it, started before the calling suite's tests and stopped after them:
 * `server` for direct connections, `proxy` for ones a test cuts off (read them in tests, once they are up).
 */
export function usePostgresBehindProxy(): { readonly server: PostgresServer; readonly proxy: TcpProxy } {
  let server: PostgresServer | undefined;
  let proxy: TcpProxy | undefined;
  beforeAll(async () => {
    server = await startPostgres();
    proxy = await startTcpProxy(server.port);
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
  });
  return {
    get server() {
      return server!;
    },
    get proxy() {
      return proxy!;
    },
  };
}
