// A loopback TCP proxy that can cut a client off from its server the way a network partition does: open connections
// are destroyed, and new ones are accepted but never answered (a black hole), so a client waits out its own timeouts
// instead of being refused at once.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The proxy's loopback port. */
  port: number;
  /** Destroys every open connection and black-holes new ones until `heal`. */
  partition(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
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
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
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
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
