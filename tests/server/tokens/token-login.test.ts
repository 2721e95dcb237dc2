// Tokens minted from logins, as the token API treats them: renewed through the auth method (which applies the role's
// current TTLs, or refuses), while the tokens they create renew by their own rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTokenServer, type TokenServer } from './token-harness.js';

let server: TokenServer;

beforeAll(async () => {
  server = await startTokenServer();
  await server.putPolicy('minter', 'path "auth/token/create" { capabilities = ["update"] }');
  await server.putRole('web', { token_policies: ['minter'], token_ttl: 600, token_max_ttl: 1000 });
}, 60_000);

afterAll(() => server?.stop());

const renewSelf = (token: string, body: object = {}) =>
  server.send({ method: 'POST', path: '/v1/auth/token/renew-self', token, body });

describe('a login token', () => {
  it("renews through the auth method, by the role's current TTLs, up to its max TTL", async () => {
    const token = (await server.login('web')).json.auth.client_token;
    server.clock.advance(300);
    expect((await renewSelf(token)).json.auth.lease_duration).toBe(600);
    await server.putRole('web', { token_policies: ['minter'], token_ttl: 120, token_max_ttl: 1000 });
    expect((await renewSelf(token)).json.auth.lease_duration).toBe(120);
    server.clock.advance(100);
    const capped = await renewSelf(token, { increment: 900 });
    expect(capped.json.auth.lease_duration).toBe(600);
    expect(capped.json.warnings[0]).toContain('exceeded the effective max_ttl');
    await server.putRole('web', { token_policies: ['minter'], token_ttl: 600, token_max_ttl: 1000 });
  });

  it('keeps its expiry when the auth method refuses the renewal', async () => {
    await server.putRole('doomed', { token_policies: ['minter'], token_ttl: 600 });
    const token = (await server.login('doomed')).json.auth.client_token;
    await server.send({ method: 'DELETE', path: '/v1/auth/aws/role/doomed', token: server.root });
    const refused = await renewSelf(token);
    expect(refused.status).toBe(403);
    expect((await server.lookup(token))!.ttl).toBe(600);
  });

  it('is refused a renewal it cannot have before the auth method is asked', async () => {
    await server.putRole('batch', { token_policies: ['minter'], token_type: 'batch' });
    const token = (await server.login('batch')).json.auth.client_token;
    await server.send({ method: 'DELETE', path: '/v1/auth/aws/role/batch', token: server.root });
    const refused = await renewSelf(token);
    expect([refused.status, refused.json.errors]).toEqual([400, ['lease is not renewable']]);
  });

  it("takes the role's new period at a renewal", async () => {
    await server.putRole('periodic', { token_policies: ['minter'], token_period: 300 });
    const token = (await server.login('periodic')).json.auth.client_token;
    expect((await server.lookup(token))!.period).toBe(300);
    await server.putRole('periodic', { token_policies: ['minter'], token_period: 600 });
    expect((await renewSelf(token)).json.auth.lease_duration).toBe(600);
    expect((await server.lookup(token))!.period).toBe(600);
  });

  it('makes children that renew by their own rules, not through the auth method', async () => {
    const parent = (await server.login('web')).json.auth.client_token;
    const child = (await server.create(parent, { ttl: 100 })).json.auth.client_token;
    server.clock.advance(50);
    expect((await renewSelf(child, { increment: 80 })).json.auth.lease_duration).toBe(80);
    expect((await renewSelf(child)).json.auth.lease_duration).toBe(100);
  });
});
