// Servers that the blocks of docs/production.md start (the `serves` and `tls` markers): each command started alone in
// its own process group, its banner awaited, its health check answered, and a graceful stop on SIGTERM.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { request } from '../server/harness.js';
import { selfSignedCertificate } from '../support/certificates.js';
import type { Scratch } from '../support/sh-blocks.js';

/** A self-signed certificate for localhost and 127.0.0.1, at `folder`/tls.crt and tls.key. */
export function certificateFor(folder: string): void {
  selfSignedCertificate(join(folder, 'tls.crt'), join(folder, 'tls.key'));
}

/** Starts `command` with bash, checks it serves, stops it with SIGTERM; answers what it printed. */
export async function serveOnce(command: string, scratch: Scratch, env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn('bash', ['-e', '-c', command], { cwd: scratch.dir, env, detached: true, stdio: 'pipe' });
  const group = -child.pid!;
  let output = '';
  // 'close': every process holding the output (bash, npx, the server) is gone, not only bash.
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const seen = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /listening on (https?):\/\/(\S+):(\d+)/.exec(output);
        if (found && output.includes('VAULT_ADDR')) resolve(`${found[1]}://127.0.0.1:${found[3]}`);
      };
      child.stdout.on('data', seen);
      child.stderr.on('data', seen);
      void exited.then(() => reject(new Error(`${command}\nexited before serving:\n${output}`)));
    });
    const tls = url.startsWith('https')
      ? { ca: readFileSync(join(scratch.fs, 'etc/strongroom/tls.crt')), servername: 'localhost' }
      : undefined;
    const health = await request(url, { path: '/v1/sys/health', ...(tls ? { tls } : {}) });
    expect(health.status, `${command}\n${output}`).toBe(200);
    process.kill(group, 'SIGTERM');
    await exited;
    // The server itself says when it has stopped gracefully, whatever the shell and npx around it answer.
    expect(output, command).toContain('stopped');
    return output;
  } finally {
    try {
      process.kill(group, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Every command of a `serves` block, one after the other. */
export async function serveEach(commands: string[], scratch: Scratch, env: NodeJS.ProcessEnv): Promise<void> {
  expect(commands.length).toBeGreaterThan(0);
  for (const command of commands) await serveOnce(command, scratch, env);
}
