// Vault's warning for request fields a path does not know, over HTTP: the engines' paths carry it in the envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type Started } from './harness.js';

const warning = (...names: string[]) => `Endpoint ignored these unrecognized parameters: [${names.join(' ')}]`;

let started: Started;
const send = (options: Parameters<typeof request>[1]) => request(started.url, { token: started.rootToken, ...options });

beforeAll(async () => {
  started = await startServer({ env: {} });
}, 120_000);

afterAll(() => started?.stop());

describe('the warning for unknown fields over HTTP', () => {
  it('a misspelt bound_vpc_ids on a role write answers 200 with the warning and binds nothing', async () => {
    const written = await send({
      method: 'POST',
      path: '/v1/auth/aws/role/web',
      body: { auth_type: 'ec2', bound_ami_id: 'ami-1', bound_vpc_ids: 'vpc-1' },
    });
    expect(written.status).toBe(200);
    expect(written.json).toMatchObject({ data: null, warnings: [warning('bound_vpc_ids')] });
    const read = await send({ path: '/v1/auth/aws/role/web' });
    expect(read.json.data.bound_vpc_id).toEqual([]);
    const correct = await send({ method: 'POST', path: '/v1/auth/aws/role/web', body: { bound_vpc_id: 'vpc-1' } });
    expect(correct.status).toBe(204);
  });

  it('a KV data write with a stray top-level field answers the version and the warning', async () => {
    const written = await send({ method: 'POST', path: '/v1/secret/data/app', body: { data: { a: 1 }, version: 3 } });
    expect(written.status).toBe(200);
    expect(written.json.data.version).toBe(1);
    expect(written.json.warnings).toEqual([warning('version')]);
    const read = await send({ path: '/v1/secret/data/app?colour=red' });
    expect(read.json.warnings).toEqual([warning('colour')]);
    expect((await send({ path: '/v1/secret/metadata/?list=true' })).json.warnings).toBeNull();
  });

  it('token create words it the same way', async () => {
    const made = await send({ method: 'POST', path: '/v1/auth/token/create', body: { ttl: '1h', polices: ['x'] } });
    expect(made.status).toBe(200);
    expect(made.json.warnings).toEqual([warning('polices')]);
  });
});
