// Every example in examples/ runs, against the sources: `strongroom` and `strongroom/server` resolve to src/.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { request } from './harness.js';

const root = new URL('../../', import.meta.url).pathname;

async function bundled(example: string): Promise<string> {
  mkdirSync(`${root}.test-build`, { recursive: true });
  const outfile = `${root}.test-build/${example.replace('.mjs', '')}-${process.pid}.mjs`;
  await build({
    entryPoints: [`${root}examples/${example}`],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'silent',
    packages: 'external',
    alias: { 'strongroom/server': `${root}src/server/index.ts`, strongroom: `${root}src/index.ts` },
  });
  return outfile;
}

function run(file: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [file], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, output: () => out, exited };
}

describe('examples/', () => {
  it('kv-in-process.mjs writes two versions and reads both', async () => {
    const { output, exited } = run(await bundled('kv-in-process.mjs'));
    expect(await exited).toBe(0);
    expect(JSON.parse(output())).toEqual({
      version: 2,
      latest: { password: 'battery staple' },
      first: { password: 'correct horse' },
    });
  });

  it('express-server.mjs serves the Vault API and its own route, and stops on SIGTERM', async () => {
    const { child, output, exited } = run(await bundled('express-server.mjs'), {
      PORT: '0',
      STRONGROOM_ROOT_TOKEN: 'sr.example',
    });
    await expect.poll(output, { timeout: 15_000 }).toContain('listening on');
    const url = /listening on (\S+)/.exec(output())![1]!;
    expect((await request(url, { path: '/healthz' })).json).toEqual({ ok: true });
    expect(
      (
        await request(url, {
          method: 'POST',
          path: '/v1/secret/data/a',
          token: 'sr.example',
          body: { data: { b: 'c' } },
        })
      ).status,
    ).toBe(200);
    expect(
      (await request(url, { method: 'LIST', path: '/v1/secret/metadata/', token: 'sr.example' })).json.data.keys,
    ).toEqual(['a']);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
