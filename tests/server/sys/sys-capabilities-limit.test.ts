// sys/capabilities-self judges every path it is sent; without a bound, one request of a few hundred kilobytes of short
// paths would cost as many ACL checks as it names. At most MAX_CAPABILITY_PATHS paths, a 400 past them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CAPABILITY_PATHS } from '../../../src/server/routes/sys-routes.js';
import { request, startServer, type Started } from '../harness.js';

const ROOT = 'sr.capabilities-limit';
let started: Started;
beforeAll(async () => {
  started = await startServer({ rootToken: ROOT });
});
afterAll(() => started.stop());

const ask = (paths: string[]) =>
  request(started.url, { method: 'POST', path: '/v1/sys/capabilities-self', token: ROOT, body: { paths } });
const names = (count: number) => Array.from({ length: count }, (_, index) => `secret/data/p${index}`);

describe('sys/capabilities-self bounds the paths of one request', () => {
  it(`answers ${MAX_CAPABILITY_PATHS} paths, one per path`, async () => {
    const answer = await ask(names(MAX_CAPABILITY_PATHS));
    expect(answer.status).toBe(200);
    expect(answer.json.data['secret/data/p0']).toEqual(['root']);
    expect(answer.json.data[`secret/data/p${MAX_CAPABILITY_PATHS - 1}`]).toEqual(['root']);
  });

  it('refuses one path more with a 400 naming the limit', async () => {
    const answer = await ask(names(MAX_CAPABILITY_PATHS + 1));
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([`"paths" may name at most ${MAX_CAPABILITY_PATHS} paths`]);
  });
});
