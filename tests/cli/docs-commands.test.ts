// The commands of docs/production.md's "Metrics" section, run as written in bash (`strongroom` on the PATH is the
// built command) against `strongroom server` processes: the Prometheus token and its policy, its renewal, and the
// unauthenticated scrape.
import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from '../server/harness.js';
import { sequenceBlocks } from '../support/sh-blocks.js';
import { serveCommand, type ServedCommand } from './run-cli.js';

let bin: string;
const served: ServedCommand[] = [];

/** The Metrics section's blocks, in order: the token and its policy, its renewal, the unauthenticated scrape. */
const blocks = sequenceBlocks('docs/production.md', 'Metrics');
const NAMES = ['metrics-token', 'metrics-renew', 'metrics-open'];

function block(name: string): string {
  expect(blocks).toHaveLength(NAMES.length);
  return blocks[NAMES.indexOf(name)]!;
}

/** Runs a block in bash, failing on any failed command of it, in `cwd` with `env`. */
function runBlock(name: string, cwd: string, env: Record<string, string>) {
  const result = spawnSync('bash', ['-c', `set -euo pipefail\n${block(name)}`], {
    cwd,
    env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: cwd, ...env },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  const cli = await builtCli();
  bin = mkdtempSync(join(tmpdir(), 'strongroom-bin-'));
  writeFileSync(join(bin, 'strongroom'), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
  chmodSync(join(bin, 'strongroom'), 0o755);
  served.push(
    ...(await Promise.all([
      serveCommand(cli, { STRONGROOM_ROOT_TOKEN: 'docs-root' }),
      serveCommand(cli, { STRONGROOM_ROOT_TOKEN: 'docs-root', STRONGROOM_METRICS_UNAUTHENTICATED: 'true' }),
    ])),
  );
}, 120_000);
afterAll(() => served.forEach((server) => server.stop()));

describe('docs/production.md: Metrics', () => {
  it('makes the Prometheus token, scrapes with it, and renews it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'strongroom-prometheus-'));
    const env = { STRONGROOM_ADDR: served[0]!.url, STRONGROOM_TOKEN: 'docs-root' };
    const made = runBlock('metrics-token', dir, env);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^Success! Uploaded policy: prometheus\nstrongroom_tokens_live \d+\n$/);
    expect(statSync(join(dir, 'strongroom-token')).mode & 0o777).toBe(0o640);
    const renewed = runBlock('metrics-renew', dir, { STRONGROOM_ADDR: served[0]!.url });
    expect(renewed).toEqual({ code: 0, stdout: '720h', stderr: '' });
  });

  it('scrapes without a token where STRONGROOM_METRICS_UNAUTHENTICATED=true, and only there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'strongroom-prometheus-'));
    const open = runBlock('metrics-open', dir, { STRONGROOM_ADDR: served[1]!.url });
    expect(open).toEqual({ code: 0, stdout: '# TYPE strongroom_http_requests_total counter\n', stderr: '' });
    expect(runBlock('metrics-open', dir, { STRONGROOM_ADDR: served[0]!.url }).code).not.toBe(0);
  });
});
