// A login token bound to addresses (the role's token_bound_cidrs) works only from them, and so do its children: a
// child that dropped the binding would carry the parent's access to anywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inCidrs } from '../../../src/server/tokens/token-cidrs.js';
import { startTokenServer, type TokenServer } from './token-harness.js';

const INSIDE = '127.0.0.1';
const OUTSIDE = '127.0.0.2';

let server: TokenServer;

beforeAll(async () => {
  server = await startTokenServer();
  await server.putPolicy(
    'app',
    'path "secret/data/app/*" { capabilities = ["read"] }\npath "auth/token/create*" { capabilities = ["update"] }',
  );
  await server.send({
    method: 'POST',
    path: '/v1/secret/data/app/db',
    token: server.root,
    body: { data: { password: 'p' } },
  });
  await server.putRole('bound', { token_policies: ['app'], token_bound_cidrs: [`${INSIDE}/32`] });
}, 60_000);

afterAll(() => server?.stop());

const read = (token: string, from: string) => server.send({ path: '/v1/secret/data/app/db', token }, from);

describe('bound CIDRs', () => {
  it('hold for the login token itself', async () => {
    const login = await server.login('bound');
    expect(login.status).toBe(200);
    const token = login.json.auth.client_token;
    expect((await read(token, INSIDE)).status).toBe(200);
    expect((await read(token, OUTSIDE)).status).toBe(403);
    expect((await server.lookup(token))!.bound_cidrs).toEqual([`${INSIDE}/32`]);
  });

  it('are inherited by children and grandchildren', async () => {
    const parent = (await server.login('bound')).json.auth.client_token;
    const child = (await server.create(parent, { policies: ['app'] })).json.auth.client_token;
    const grandchild = (await server.create(child, {})).json.auth.client_token;
    for (const token of [child, grandchild]) {
      expect((await read(token, INSIDE)).status).toBe(200);
      expect((await read(token, OUTSIDE)).status).toBe(403);
      expect((await server.lookup(token))!.bound_cidrs).toEqual([`${INSIDE}/32`]);
    }
  });

  it('are not given to an orphan, which Vault binds to nothing (only a path allowed by policy makes one)', async () => {
    const parent = (await server.login('bound')).json.auth.client_token;
    const orphan = (await server.create(parent, { policies: ['app'] }, 'auth/token/create-orphan')).json.auth
      .client_token;
    expect((await read(orphan, OUTSIDE)).status).toBe(200);
    expect((await server.lookup(orphan))!.bound_cidrs).toBeUndefined();
  });

  it('are refused before a use is counted: a request from elsewhere spends none', async () => {
    await server.putRole('bound-twice', {
      token_policies: ['app'],
      token_bound_cidrs: [`${INSIDE}/32`],
      token_num_uses: 2,
    });
    const token = (await server.login('bound-twice')).json.auth.client_token;
    expect((await read(token, OUTSIDE)).status).toBe(403);
    expect((await read(token, INSIDE)).status).toBe(200);
    expect((await read(token, INSIDE)).status).toBe(200);
    expect((await read(token, INSIDE)).status).toBe(403);
  });
});

describe('inCidrs', () => {
  it('takes blocks and single addresses of both families, and refuses an unknown or malformed address', () => {
    expect(inCidrs([], undefined)).toBe(true);
    expect(inCidrs(['10.0.0.0/8'], '10.1.2.3')).toBe(true);
    expect(inCidrs(['10.0.0.0/8'], '11.1.2.3')).toBe(false);
    expect(inCidrs(['192.0.2.7'], '192.0.2.7')).toBe(true);
    expect(inCidrs(['192.0.2.7'], '192.0.2.8')).toBe(false);
    expect(inCidrs(['2001:db8::/32', '192.0.2.0/24'], '2001:db8::1')).toBe(true);
    expect(inCidrs(['2001:db8::1'], '2001:db8::1')).toBe(true);
    expect(inCidrs(['2001:db8::/32'], '2001:db9::1')).toBe(false);
    expect(inCidrs(['10.0.0.0/8'], undefined)).toBe(false);
    expect(inCidrs(['10.0.0.0/8'], 'localhost')).toBe(false);
  });
});
