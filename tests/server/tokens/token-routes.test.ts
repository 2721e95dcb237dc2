// The token API's route table, each path with the methods it takes and no other path: a server made inside each
// test (not in a hook), so that what builds the table is checked too.
import { describe, expect, it } from 'vitest';
import { request, startServer } from '../harness.js';

const ROOT = 'sr.routes-root';

async function withServer(
  run: (
    send: (method: string, path: string, body?: object, token?: string) => Promise<{ status: number; json: any }>,
  ) => Promise<void>,
) {
  const started = await startServer({ rootToken: ROOT });
  try {
    await run((method, path, body, token = ROOT) =>
      request(started.url, { method, path: `/v1/${path}`, token, ...(body ? { body } : {}) }),
    );
  } finally {
    await started.stop();
  }
}

describe('the token routes', () => {
  it('answer every path of the token API, by the methods it takes', async () => {
    await withServer(async (send) => {
      const made = async (path = 'auth/token/create') => (await send('POST', path, { ttl: 600 })).json.auth;
      const child = await made();
      expect(child.orphan).toBe(false);
      const orphan = await made('auth/token/create-orphan');
      expect(orphan.orphan).toBe(true);
      expect((await send('PUT', 'auth/token/create', {})).status).toBe(200);
      for (const method of ['GET', 'POST']) {
        expect((await send(method, 'auth/token/lookup-self', undefined, child.client_token)).json.data.id).toBe(
          child.client_token,
        );
        expect((await send(method, `auth/token/lookup/${child.client_token}`)).json.data.accessor).toBe(child.accessor);
      }
      expect((await send('POST', 'auth/token/lookup', { token: child.client_token })).json.data.accessor).toBe(
        child.accessor,
      );
      expect((await send('POST', 'auth/token/lookup-accessor', { accessor: child.accessor })).json.data.id).toBe('');
      expect((await send('POST', 'auth/token/renew-self', {}, child.client_token)).json.auth.client_token).toBe(
        child.client_token,
      );
      expect((await send('POST', 'auth/token/renew', { token: child.client_token })).json.auth.lease_duration).toBe(
        600,
      );
      expect((await send('PUT', `auth/token/renew/${child.client_token}`)).json.auth.lease_duration).toBe(600);
      expect((await send('POST', 'auth/token/revoke-accessor', { accessor: orphan.accessor })).status).toBe(204);
      expect((await send('POST', 'auth/token/lookup', { token: orphan.client_token })).status).toBe(403);
      const [a, b, c] = [await made(), await made(), await made()];
      expect((await send('POST', 'auth/token/revoke', { token: a.client_token })).status).toBe(204);
      expect((await send('POST', `auth/token/revoke/${b.client_token}`)).status).toBe(204);
      expect((await send('POST', 'auth/token/revoke-self', undefined, c.client_token)).status).toBe(204);
      for (const token of [a, b, c])
        expect((await send('POST', 'auth/token/lookup', { token: token.client_token })).status).toBe(403);
      // Gone already: done, as in Vault.
      expect((await send('POST', 'auth/token/revoke', { token: a.client_token })).status).toBe(204);
      expect(child.client_token).toMatch(/^sr\.[A-Za-z0-9_-]{43}$/);
      expect(child.accessor).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect((await send('GET', 'auth/token/lookup-self')).json.data).toMatchObject({
        display_name: 'root',
        path: 'auth/token/root',
        renewable: false,
        ttl: 0,
        policies: ['root'],
      });
    });
  });

  it('refuse other methods with 405 and answer 404 for paths that only begin or end like theirs', async () => {
    await withServer(async (send) => {
      for (const path of [
        'create',
        'create-orphan',
        'lookup',
        'lookup-accessor',
        'renew-self',
        'renew',
        'revoke-self',
        'revoke',
        'revoke-accessor',
      ]) {
        expect((await send('DELETE', `auth/token/${path}`)).status, path).toBe(405);
        // lookup/, renew/ and revoke/ are followed by a token in the older forms, create/ by a token role.
        if (!['lookup', 'renew', 'revoke', 'create'].includes(path))
          expect((await send('POST', `auth/token/${path}/extra`)).status, `${path}/extra`).toBe(404);
        expect((await send('POST', `v2/auth/token/${path}`)).status, `v2/${path}`).toBe(404);
      }
      expect((await send('GET', 'auth/token/lookup-self/x')).status).toBe(404);
      expect((await send('POST', 'auth/token/create/extra')).status).toBe(400);
      expect((await send('POST', 'auth/token/create/extra/more')).status).toBe(404);
      for (const path of ['lookup-self', 'lookup/sr.x', 'renew/sr.x', 'revoke/sr.x'])
        expect((await send('POST', `v2/auth/token/${path}`)).status, `v2/${path}`).toBe(404);
      expect((await send('DELETE', 'auth/token/lookup-self')).status).toBe(405);
    });
  });
});
