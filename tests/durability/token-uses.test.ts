// Two server processes over one SQLite file, under random interleavings (fast-check, seeded) of token creation, use
// and revocation: a token with n uses is accepted exactly n times in total whichever process counts them, and never
// after its revocation. The tokens made below one token stay within their quota, whichever process makes them.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type RawRequest } from '../server/harness.js';

const ROOT = 'sr.durable-token-root';
const PER_PARENT = 5;
const repository = resolve(import.meta.dirname, '../..');
let bundle: string;
let data: string;
const children: ChildProcess[] = [];
let urls: string[];

beforeAll(async () => {
  // Inside the repository (in a folder git ignores), so that the bundle's packages resolve from its node_modules.
  mkdirSync(join(repository, '.test-build'), { recursive: true });
  bundle = mkdtempSync(join(repository, '.test-build', 'token-durability-'));
  data = mkdtempSync(join(tmpdir(), 'strongroom-token-durability-'));
  const script = join(bundle, 'token-server.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'token-server.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: script,
    logLevel: 'silent',
  });
  const env = {
    ...process.env,
    STORAGE_TARGET: join(data, 'shared.db'),
    ROOT_TOKEN: ROOT,
    MAX_TOKENS_PER_PARENT: String(PER_PARENT),
  };
  urls = [];
  // One after the other: the first creates the schema.
  for (let index = 0; index < 2; index++) {
    const child = fork(script, [], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(child);
    urls.push(
      await new Promise<string>((done, fail) => {
        child.once('message', (message: { url: string }) => done(message.url));
        child.once('exit', (code) => fail(new Error(`token server exited with ${code}`)));
      }),
    );
  }
  const policy =
    'path "secret/data/*" { capabilities = ["read"] }\npath "auth/token/create" { capabilities = ["update"] }';
  expect((await on(0, { method: 'PUT', path: '/v1/sys/policies/acl/user', body: { policy } })).status).toBe(204);
}, 60_000);

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(bundle, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

const on = (process: number, options: RawRequest) => request(urls[process % 2]!, { token: ROOT, ...options });
const create = async (process: number, body: object, token = ROOT) =>
  on(process, { method: 'POST', path: '/v1/auth/token/create', token, body });
/** A use of `token` on one process: 404 (there is no such secret) means let through, 403 refused. */
const use = async (process: number, token: string) => {
  const { status } = await on(process, { path: '/v1/secret/data/nothing-here', token });
  expect([403, 404]).toContain(status);
  return status === 404;
};

/** One token's life: made on a process, used in concurrent bursts spread over both, perhaps revoked during one. */
const life = fc.record({
  maker: fc.nat(1),
  uses: fc.integer({ min: 1, max: 4 }),
  bursts: fc.array(fc.array(fc.nat(1), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }),
  revoke: fc.option(fc.record({ burst: fc.nat(2), by: fc.nat(1) }), { nil: undefined }),
});

describe('two processes over one SQLite file', () => {
  it('accept a token with n uses exactly n times, never after its revocation', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(life, { minLength: 1, maxLength: 4 }), async (lives) => {
        for (const { maker, uses, bursts, revoke } of lives) {
          const token = (await create(maker, { policies: ['user'], num_uses: uses })).json.auth.client_token as string;
          let accepted = 0;
          let revoked = false;
          for (const [index, burst] of bursts.entries()) {
            const revoking =
              revoke?.burst === index
                ? on(revoke.by, { method: 'POST', path: '/v1/auth/token/revoke', body: { token } })
                : undefined;
            const answers = await Promise.all(burst.map((process) => use(process, token)));
            const passed = answers.filter(Boolean).length;
            if (revoked) expect(passed, 'after the revocation').toBe(0);
            if (revoking) {
              expect((await revoking).status).toBe(204);
              revoked = true;
            } else if (!revoked) {
              expect(passed, 'without a revocation').toBe(Math.min(burst.length, uses - accepted));
            }
            accepted += passed;
            expect(accepted).toBeLessThanOrEqual(uses);
          }
          if (revoked || accepted === uses) expect((await use(0, token)) || (await use(1, token))).toBe(false);
        }
      }),
      { seed: 27, numRuns: 8 },
    );
  }, 60_000);

  it('let the tokens made below one token reach their quota exactly, whichever process makes them', async () => {
    const parent = (await create(0, { policies: ['user'] })).json.auth.client_token as string;
    const answers = await Promise.all(
      Array.from({ length: 3 * PER_PARENT }, (_, index) => create(index, { policies: ['user'] }, parent)),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(PER_PARENT);
    expect(answers.filter((answer) => answer.status !== 200).map((answer) => answer.status)).toEqual(
      Array(2 * PER_PARENT).fill(429),
    );
    const child = answers.find((answer) => answer.status === 200)!.json.auth.client_token as string;
    expect((await on(1, { method: 'POST', path: '/v1/auth/token/revoke', body: { token: child } })).status).toBe(204);
    const again = await Promise.all([create(0, {}, parent), create(1, {}, parent)]);
    expect(again.map((answer) => answer.status).sort()).toEqual([200, 429]);
  }, 60_000);
});
