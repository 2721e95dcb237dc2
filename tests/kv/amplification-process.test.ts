import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, dataDir } from '../server/harness.js';

/**
 * The red-team's crash, reproduced against the real thing: the `strongroom server` command with its heap capped at
 * 256 MB receives the 836-byte request of 22 root copies on a 1 KB secret. It must answer 400 and keep serving.
 */

const ROOT = 'sr.amplification-root';
let directory: string;
let child: ChildProcess;
let base: string;

beforeAll(async () => {
  directory = dataDir();
  child = spawn(process.execPath, ['--max-old-space-size=256', await builtCli(), 'server'], {
    env: { ...process.env, PORT: '0', STRONGROOM_ROOT_TOKEN: ROOT, STRONGROOM_DATA_DIR: directory },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let banner = '';
  base = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${banner}`)));
    child.stderr?.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(banner);
      if (found) resolve(`${found[1]}/v1/secret/`);
    });
  });
}, 60_000);

afterAll(() => {
  child?.kill('SIGKILL');
  if (directory) rmSync(directory, { recursive: true, force: true });
});

const headers = (contentType: string) => ({ 'content-type': contentType, 'x-vault-token': ROOT });

async function send(method: string, path: string, body: unknown, contentType = 'application/json') {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: headers(contentType),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.text()) || undefined };
}

describe('a real server process with a 256 MB heap survives JSON Patch amplification (issue 18.1)', () => {
  it('answers the 836-byte request with 400 and keeps serving', async () => {
    expect((await send('POST', 'data/victim', { data: { secret: 's'.repeat(1024) } })).status).toBe(200);
    const body = JSON.stringify({
      data: Array.from({ length: 22 }, (_, index) => ({ op: 'copy', from: '', path: `/c${index}` })),
    });
    expect(body.length).toBeLessThanOrEqual(836);
    const response = await fetch(`${base}data/victim`, {
      method: 'PATCH',
      headers: headers('application/json-patch+json'),
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('(copy) failed: the result would be larger than the limit');
    const read = await send('GET', 'data/victim', undefined);
    expect(read.status).toBe(200);
    expect(JSON.parse(read.json as string).data.metadata.version).toBe(1);
    expect(child.exitCode).toBeNull();
  }, 60_000);
});
