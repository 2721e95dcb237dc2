// `strongroom operator rotate` and `key-status` run as processes. This branch's server has no sys/rotate or
// sys/key-status yet, so a small real HTTP server in the test answers in Vault's shapes and records what the command
// sends: the method, the path and the token.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from '../server/harness.js';
import { freshHome, runCli } from './run-cli.js';

interface Seen {
  method: string | undefined;
  url: string | undefined;
  token: string | string[] | undefined;
}

let cli: string;
let server: http.Server;
let address: string;
const seen: Seen[] = [];
let term = 1;

beforeAll(async () => {
  cli = await builtCli();
  server = http.createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, token: req.headers['x-vault-token'] });
    const send = (status: number, body?: object) => {
      res.writeHead(status, body ? { 'Content-Type': 'application/json' } : {});
      res.end(body ? JSON.stringify(body) : undefined);
    };
    if (req.headers['x-vault-token'] !== 'operator-token') return send(403, { errors: ['permission denied'] });
    if (req.method === 'POST' && req.url === '/v1/sys/rotate') return (term++, send(204));
    if (req.method === 'GET' && req.url === '/v1/sys/key-status') {
      const status = { term, install_time: '2026-11-28T09:00:00Z', encryptions: 42 };
      return send(200, { ...status, data: status });
    }
    send(404, { errors: [] });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const operator = (args: string[], token = 'operator-token') =>
  runCli(cli, ['operator', ...args], { HOME: freshHome(), VAULT_ADDR: address, VAULT_TOKEN: token });

describe('strongroom operator', () => {
  it('key-status GETs sys/key-status and prints the term, install time and encryptions', async () => {
    seen.length = 0;
    const status = await operator(['key-status']);
    expect(status).toEqual({
      code: 0,
      stdout: 'Key Term            1\nInstall Time        2026-11-28T09:00:00Z\nEncryption Count    42\n',
      stderr: '',
    });
    expect(seen).toEqual([{ method: 'GET', url: '/v1/sys/key-status', token: 'operator-token' }]);
    expect((await operator(['key-status', '-field=term'])).stdout).toBe('1');
    expect(JSON.parse((await operator(['key-status', '-format=json'])).stdout).data.term).toBe(1);
  });

  it('rotate POSTs sys/rotate, then prints the new key status', async () => {
    seen.length = 0;
    const rotated = await operator(['rotate']);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toBe(
      'Success! Rotated key\n\nKey Term            2\nInstall Time        2026-11-28T09:00:00Z\nEncryption Count    42\n',
    );
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'POST /v1/sys/rotate',
      'GET /v1/sys/key-status',
    ]);
    expect(seen.every(({ token }) => token === 'operator-token')).toBe(true);
  });

  it("exits 2 with the server's refusal, and 1 for an unknown subcommand or argument", async () => {
    const refused = await operator(['rotate'], 'not-sudo');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `Error making API request.\n\nURL: POST ${address}/v1/sys/rotate\nCode: 403. Errors:\n\n* permission denied\n`,
    );
    expect((await operator(['spin'])).code).toBe(1);
    expect((await operator(['rotate', 'extra'])).code).toBe(1);
  });
});
