// The wire rules every way of serving strongroom must keep, whatever HTTP stack it is mounted in: run by the
// standalone server's tests and by each framework mount's.
import { describe, expect, it } from 'vitest';
import { request } from '../harness.js';

export interface WireTarget {
  url: () => string;
  /** A token allowed everything on secret/; empty when the mount does no token checks. */
  token: string;
  maxBodyBytes: number;
  /** An engine served alone has no tokens to wrap answers with, and refuses X-Vault-Wrap-TTL; the server wraps. */
  engineAlone?: boolean;
}

export function wireSuite(name: string, target: WireTarget): void {
  const send = (options: Parameters<typeof request>[1]) =>
    request(target.url(), { token: target.token || undefined, ...options });

  describe(`${name}: Vault wire rules`, () => {
    it('takes a body without Content-Type as JSON and answers the Vault envelope', async () => {
      const write = await send({ method: 'POST', path: '/v1/secret/data/wire/a', rawBody: '{"data":{"k":"v"}}' });
      expect(write.status).toBe(200);
      expect(write.headers['content-type']).toBe('application/json');
      expect(write.json).toMatchObject({
        lease_id: '',
        renewable: false,
        data: { version: 1 },
        wrap_info: null,
        warnings: null,
        auth: null,
      });
      expect((await send({ path: '/v1/secret/data/wire/a' })).json.data.data).toEqual({ k: 'v' });
    });

    it('takes text/plain and form types as JSON too, as Vault does', async () => {
      const write = await send({
        method: 'PUT',
        path: '/v1/secret/data/wire/b',
        rawBody: '{"data":{"k":"w"}}',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(write.status).toBe(200);
    });

    it('answers LIST and GET ?list=true alike', async () => {
      const listed = await send({ method: 'LIST', path: '/v1/secret/metadata/wire' });
      expect(listed.json.data.keys).toEqual(['a', 'b']);
      expect((await send({ path: '/v1/secret/metadata/wire?list=true' })).json.data.keys).toEqual(['a', 'b']);
    });

    it('applies PATCH with the merge-patch media type, and answers 415 without it', async () => {
      const patched = await send({
        method: 'PATCH',
        path: '/v1/secret/data/wire/a',
        body: { data: { extra: 1 } },
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expect(patched.status).toBe(200);
      expect((await send({ path: '/v1/secret/data/wire/a' })).json.data.data).toEqual({ k: 'v', extra: 1 });
      const refused = await send({
        method: 'PATCH',
        path: '/v1/secret/data/wire/a',
        body: { data: { x: 1 } },
        headers: { 'Content-Type': 'application/json' },
      });
      expect(refused.status).toBe(415);
      expect(refused.json.errors).toEqual(expect.any(Array));
    });

    it('answers bad JSON with a Vault-shaped 400', async () => {
      const bad = await send({
        method: 'POST',
        path: '/v1/secret/data/wire/c',
        rawBody: '{"data": hunter2',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(bad.status).toBe(400);
      expect(bad.headers['content-type']).toBe('application/json');
      expect(bad.json).toEqual({ errors: ['failed to parse JSON input: the body is not valid JSON'] });
      expect(bad.text).not.toContain('hunter2');
    });

    it('answers an oversized body with a Vault-shaped 413', async () => {
      const big = JSON.stringify({ data: { blob: 'x'.repeat(target.maxBodyBytes) } });
      const refused = await send({ method: 'POST', path: '/v1/secret/data/wire/big', rawBody: big });
      expect(refused.status).toBe(413);
      expect(refused.json).toEqual({
        errors: [`request body is larger than the limit of ${target.maxBodyBytes} bytes`],
      });
    });

    it('answers 204 without a body, and errors as {"errors": [...]}', async () => {
      const deleted = await send({ method: 'DELETE', path: '/v1/secret/data/wire/b' });
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      const missing = await send({ path: '/v1/secret/data/wire/never' });
      expect(missing.status).toBe(404);
      expect(missing.json).toEqual({ errors: [] });
      expect((await send({ path: '/v1/secret/data/wire/%2e%2e/x' })).status).toBe(400);
    });

    it.skipIf(target.engineAlone)(
      'answers a request for response wrapping with the wrapper alone, unwrapped once',
      async () => {
        const read = await send({ path: '/v1/secret/data/wire/a', headers: { 'X-Vault-Wrap-TTL': '5m' } });
        expect(read.status).toBe(200);
        expect(read.json).toMatchObject({ data: null, wrap_info: { ttl: 300, creation_path: 'secret/data/wire/a' } });
        const body = { token: read.json.wrap_info.token };
        const unwrapped = await send({ method: 'POST', path: '/v1/sys/wrapping/unwrap', body });
        expect(unwrapped.json.data.data).toMatchObject({ k: 'v' });
        expect((await send({ method: 'POST', path: '/v1/sys/wrapping/unwrap', body })).status).toBe(400);
      },
    );

    it.runIf(target.engineAlone)('refuses response wrapping rather than answer unwrapped', async () => {
      const read = await send({ path: '/v1/secret/data/wire/a', headers: { 'X-Vault-Wrap-TTL': '5m' } });
      expect(read.status).toBe(400);
      expect(read.json.errors[0]).toMatch(/response wrapping needs the strongroom server/);
      expect(read.text).not.toContain('"k"');
    });
  });
}
