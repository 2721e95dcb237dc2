/** Starts a node:http server on 127.0.0.1 with a free port; `stop` also drops open (even hanging) connections. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server `listenLocally` started. */
export interface LocalServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Closes the server, dropping open (even hanging) connections; resolves once it is closed. */
  stop(): Promise<void>;
}

/** Serves `handler` on 127.0.0.1 at a free port; resolves once the server listens. */
export async function listenLocally(handler: http.RequestListener): Promise<LocalServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
