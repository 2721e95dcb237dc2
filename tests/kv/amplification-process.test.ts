import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The red-team's crash, reproduced against a real process: a KV engine served over node:http with its heap capped at
 * 256 MB receives the 836-byte request of 22 root copies on a 1 KB secret. It must answer 400 and keep serving.
 */

const fixture = new URL('./fixtures/kv-http-server.ts', import.meta.url).pathname;
let directory: string;
let child: ChildProcess;
let base: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'strongroom-amplification-'));
  const bundle = join(directory, 'server.mjs');
  await build({ entryPoints: [fixture], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent' });
  child = spawn(process.execPath, ['--max-old-space-size=256', bundle], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
  });
  base = `http://127.0.0.1:${port}/v1/`;
}, 60_000);

afterAll(() => {
  child?.kill('SIGKILL');
  if (directory) rmSync(directory, { recursive: true, force: true });
});

async function send(method: string, path: string, body: unknown, contentType = 'application/json') {
  const response = await fetch(`${base}${path}`, { method, headers: { 'content-type': contentType }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, json: (await response.text()) || undefined };
}

describe('a real server process with a 256 MB heap survives JSON Patch amplification (issue 18.1)', () => {
  it('answers the 836-byte request with 400 and keeps serving', async () => {
    expect((await send('POST', 'data/victim', { data: { secret: 's'.repeat(1024) } })).status).toBe(200);
    const body = JSON.stringify({ data: Array.from({ length: 22 }, (_, index) => ({ op: 'copy', from: '', path: `/c${index}` })) });
    expect(body.length).toBeLessThanOrEqual(836);
    const response = await fetch(`${base}data/victim`, { method: 'PATCH', headers: { 'content-type': 'application/json-patch+json' }, body });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('(copy) failed: the result would be larger than the limit');
    const read = await send('GET', 'data/victim', undefined);
    expect(read.status).toBe(200);
    expect(JSON.parse(read.json as string).data.metadata.version).toBe(1);
    expect(child.exitCode).toBeNull();
  }, 60_000);
});
