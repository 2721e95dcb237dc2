// Mounting strongroom in Express 5, Fastify 5 and Hono, the way docs/server.md shows: each framework passes the same
// wire tests as the standalone server, and keeps serving its own routes beside it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptListMethod } from '../../src/adapters/http/list-method.js';
import { KvEngine } from '../../src/kv/kv-engine.js';
import { createEngineHandler, createServer, type StrongroomServer } from '../../src/server/index.js';
import { testStorage } from '../support/test-storage.js';
import { request, startServer, type Started } from './harness.js';
import { wireSuite } from './transport/wire-suite.js';

const MAX_BODY = 4096;
const ROOT = 'sr.framework-root';
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

function urlOf(server: http.Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function listening(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(urlOf(server))));
}

function strongroom(): StrongroomServer {
  const app = createServer({ rootToken: ROOT, maxBodyBytes: MAX_BODY, log: () => undefined, storage: testStorage() });
  closers.push(() => app.close({ graceMs: 100 }));
  return app;
}

describe('standalone', () => {
  let started: Started;
  beforeAll(async () => {
    started = await startServer({ rootToken: ROOT, maxBodyBytes: MAX_BODY });
    closers.push(() => started.stop());
  });
  wireSuite('standalone server', { url: () => started.url, token: ROOT, maxBodyBytes: MAX_BODY });

  it('bounds what a patch may grow a value to by the body limit', async () => {
    const send = (options: Parameters<typeof request>[1]) => request(started.url, { token: ROOT, ...options });
    const half = 'x'.repeat(MAX_BODY / 2);
    expect((await send({ method: 'POST', path: '/v1/secret/data/grow', body: { data: { a: half } } })).status).toBe(
      200,
    );
    const patch = {
      method: 'PATCH',
      path: '/v1/secret/data/grow',
      headers: { 'Content-Type': 'application/merge-patch+json' },
    } as const;
    const grown = await send({ ...patch, body: { data: { b: half } } });
    expect(grown.status).toBe(400);
    expect((await send({ path: '/v1/secret/data/grow' })).json.data.data).toEqual({ a: half });
  });
});

describe('Express 5', () => {
  let url: string;
  beforeAll(async () => {
    const vaultApi = strongroom();
    await vaultApi.ready();
    const app = express();
    app.get('/hello', (_req, res) => void res.json({ hello: 'express' }));
    // Before any body parser: strongroom reads its own bodies. Paths outside /v1/ fall through to the app.
    app.use(vaultApi.handler);
    const server = acceptListMethod(http.createServer(app));
    url = await listening(server);
    closers.push(() => new Promise((resolve) => server.close(resolve)));
  });
  wireSuite('Express 5', { url: () => url, token: ROOT, maxBodyBytes: MAX_BODY });
  it('keeps serving the app routes', async () => {
    expect((await request(url, { path: '/hello' })).json).toEqual({ hello: 'express' });
  });
});

describe('Fastify 5', () => {
  let url: string;
  beforeAll(async () => {
    const vaultApi = strongroom();
    await vaultApi.ready();
    const app = Fastify({ serverFactory: (handler) => acceptListMethod(http.createServer(handler)) });
    app.get('/hello', async () => ({ hello: 'fastify' }));
    // The Vault API runs before Fastify parses anything: the raw request and response go to strongroom.
    app.addHook('onRequest', (req, reply, done) => {
      if (!req.url.startsWith('/v1/')) return done();
      reply.hijack();
      vaultApi.handler(req.raw, reply.raw);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = urlOf(app.server);
    closers.push(() => app.close());
  });
  wireSuite('Fastify 5', { url: () => url, token: ROOT, maxBodyBytes: MAX_BODY });
  it('keeps serving the app routes', async () => {
    expect((await request(url, { path: '/hello' })).json).toEqual({ hello: 'fastify' });
  });
});

describe('Hono on @hono/node-server', () => {
  let url: string;
  beforeAll(async () => {
    const vaultApi = strongroom();
    await vaultApi.ready();
    const app = new Hono<{ Bindings: { incoming: http.IncomingMessage; outgoing: http.ServerResponse } }>();
    app.get('/hello', (c) => c.json({ hello: 'hono' }));
    app.all('/v1/*', (c) => {
      vaultApi.handler(c.env.incoming, c.env.outgoing);
      return RESPONSE_ALREADY_SENT;
    });
    const server = acceptListMethod(serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as http.Server);
    await new Promise((resolve) => (server.listening ? resolve(undefined) : server.once('listening', resolve)));
    url = urlOf(server);
    closers.push(() => new Promise((resolve) => server.close(resolve)));
  });
  wireSuite('Hono', { url: () => url, token: ROOT, maxBodyBytes: MAX_BODY });
  it('keeps serving the app routes', async () => {
    expect((await request(url, { path: '/hello' })).json).toEqual({ hello: 'hono' });
  });
});

describe('a single engine in Express 5', () => {
  let url: string;
  beforeAll(async () => {
    const kv = new KvEngine({ storage: testStorage() });
    const app = express();
    // The service decides access itself; here, everything except destroy.
    app.use(
      createEngineHandler({
        mount: 'secret/',
        engine: kv,
        maxBodyBytes: MAX_BODY,
        authorize: ({ path }) => !path.startsWith('secret/destroy/'),
      }),
    );
    const server = acceptListMethod(http.createServer(app));
    url = await listening(server);
    closers.push(() => new Promise((resolve) => server.close(resolve)));
  });
  wireSuite('KV engine alone in Express 5', { url: () => url, token: '', maxBodyBytes: MAX_BODY, engineAlone: true });
  it('asks the service authorize callback with full paths', async () => {
    expect(
      (await request(url, { method: 'PUT', path: '/v1/secret/destroy/wire/a', body: { versions: [1] } })).status,
    ).toBe(403);
    // Another path under /v1/ is the app's: Express answers its own 404.
    expect((await request(url, { path: '/v1/other/x' })).status).toBe(404);
  });
});
