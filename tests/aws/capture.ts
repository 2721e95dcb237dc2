/** A bare local HTTP server that records what reaches it and answers as told: for tests of the login forwarder. */
import type http from 'node:http';
import type { SignedHttpRequest } from '../../src/ports/cloud.js';
import { listenLocally } from '../../src/testing/index.js';

export interface Captured {
  method: string;
  path: string;
  rawHeaders: string[];
  body: string;
}

export interface CaptureServer {
  url: string;
  received: Captured[];
  stop(): Promise<void>;
}

export type Answer = (request: Captured, response: http.ServerResponse) => void;

export async function startCapture(answer: Answer = (_request, response) => response.end()): Promise<CaptureServer> {
  const received: Captured[] = [];
  const server = await listenLocally(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const captured = {
      method: request.method ?? '',
      path: request.url ?? '',
      rawHeaders: request.rawHeaders,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    received.push(captured);
    answer(captured, response);
  });
  return { ...server, received };
}

/** Decodes an iam login body as the auth method does: base64 fields, headers as base64 JSON of string or string[]. */
export function decodeIamLogin(body: {
  iam_http_request_method: string;
  iam_request_url: string;
  iam_request_body: string;
  iam_request_headers: string;
}): SignedHttpRequest {
  const fromBase64 = (value: string) => Buffer.from(value, 'base64').toString('utf8');
  const parsed = JSON.parse(fromBase64(body.iam_request_headers)) as Record<string, string | string[]>;
  return {
    method: body.iam_http_request_method,
    url: fromBase64(body.iam_request_url),
    body: fromBase64(body.iam_request_body),
    headers: Object.fromEntries(
      Object.entries(parsed).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]),
    ),
  };
}
