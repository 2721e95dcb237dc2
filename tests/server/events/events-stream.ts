// A client of the server's change-event stream (Server-Sent Events) for the events tests: it keeps what arrived, the
// status, and whether the server ended the stream.
import http from 'node:http';

export interface EventStream {
  status(): number;
  contentType(): string;
  /** Everything received so far. */
  text(): string;
  /** The `data` of each kv-change event received so far. */
  events(): Array<{ path: string; operation: string; version: number; revision: number; time: string }>;
  /** Each block received so far, as its fields: `event`, `id` and `data`, where present. */
  blocks(): Array<{ event?: string; id?: string; data?: string }>;
  /** Whether the server ended the response (or the connection). */
  ended(): boolean;
  close(): void;
}

/** Opens `GET <path>` (e.g. `/v1/sys/events/subscribe/secret?prefix=app/`) with `token`, and `extra` headers. */
export function openStream(
  baseUrl: string,
  path: string,
  token: string | undefined,
  extra: Record<string, string> = {},
): EventStream {
  const { hostname, port } = new URL(baseUrl);
  const received: string[] = [];
  let status = 0;
  let contentType = '';
  let ended = false;
  const headers: Record<string, string> = {
    Accept: 'text/event-stream',
    ...(token ? { 'X-Vault-Token': token } : {}),
    ...extra,
  };
  const req = http.get({ host: hostname, port, path, headers, agent: false }, (res) => {
    status = res.statusCode ?? 0;
    contentType = String(res.headers['content-type']);
    res.on('data', (chunk: Buffer) => received.push(chunk.toString()));
    res.on('close', () => (ended = true));
  });
  req.on('error', () => (ended = true));
  const text = () => received.join('');
  return {
    status: () => status,
    contentType: () => contentType,
    text,
    events: () => [...text().matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]!)),
    blocks: () =>
      text()
        .split('\n\n')
        .slice(0, -1)
        .map((block) =>
          Object.fromEntries(
            block
              .split('\n')
              .filter((line) => !line.startsWith(':'))
              .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
          ),
        )
        .filter((block) => Object.keys(block).length > 0),
    ended: () => ended,
    close: () => req.destroy(),
  };
}
