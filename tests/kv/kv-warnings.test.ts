import { describe, expect, it } from 'vitest';
import { dataOf, expectPlain404, setup } from './helpers.js';

const warning = (...names: string[]) => `Endpoint ignored these unrecognized parameters: [${names.join(' ')}]`;

// Every path of the KV engine warns about the request fields it does not know, as Vault's framework does.
describe("the KV engine's warning for unknown fields", () => {
  it('a data write with a stray top-level field answers the version and the warning; data and options are not checked', async () => {
    const env = setup();
    const written = await env.handle({
      method: 'POST',
      path: 'data/k',
      body: { data: { a: 1 }, options: { cas: 0, other: 1 }, cas: 0 },
    });
    expect(written.status).toBe(200);
    expect(dataOf(written).version).toBe(1);
    expect(written.body?.warnings).toEqual([warning('cas')]);
    expect(dataOf(await env.R('k')).data).toEqual({ a: 1 });
    expect((await env.W('k', { a: 2 })).body?.warnings).toBeUndefined();
  });

  it('warns about unknown query parameters of reads and listings, not about the list flag', async () => {
    const env = setup();
    await env.W('folder/k', { a: 1 });
    const read = await env.handle({ method: 'GET', path: 'data/folder/k', query: { version: '1', versoin: '1' } });
    expect(read.body?.warnings).toEqual([warning('versoin')]);
    const listed = await env.handle({ method: 'GET', path: 'metadata/folder', query: { list: 'true', limit: '5' } });
    expect(listed).toEqual({ status: 200, body: { data: { keys: ['k'] } } });
    expect((await env.LIST('folder', { page: '2' })).body?.warnings).toEqual([warning('page')]);
  });

  it('a write that answers 204 answers 200 with data null and the warning, and changes only what it knows', async () => {
    const env = setup();
    expect(await env.MD('k', { max_versions: 3, max_version: 4 })).toEqual({
      status: 200,
      body: { data: null, warnings: [warning('max_version')] },
    });
    expect(dataOf(await env.MR('k')).max_versions).toBe(3);
    await env.W('k', { a: 1 });
    const deleted = await env.handle({ method: 'POST', path: 'delete/k', body: { versions: [1], version: 1 } });
    expect(deleted).toEqual({ status: 200, body: { data: null, warnings: [warning('version')] } });
  });

  it('a metadata write of unknown fields only creates nothing', async () => {
    const env = setup();
    expect(await env.MD('k', { unknown: 1 })).toEqual({
      status: 200,
      body: { data: null, warnings: [warning('unknown')] },
    });
    expectPlain404(await env.MR('k'));
  });

  it("leaves Vault's 404 for an invalid path as it is", async () => {
    const env = setup();
    const response = await env.handle({ method: 'POST', path: 'nowhere', body: { a: 1 } });
    expect(response.status).toBe(404);
    expect(response.body?.warnings).toHaveLength(1);
    expect(response.body?.warnings?.[0]).toMatch(/^Invalid path for a versioned K\/V secrets engine/);
  });
});
