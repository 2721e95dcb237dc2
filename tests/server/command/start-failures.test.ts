// A first start that fails (its port taken, TLS files it cannot use, an audit file it cannot open) exits 1 with a
// clear message and leaves nothing that stops the next start: that one prints a root token, and the token works.
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataDir, request } from '../harness.js';
import { killSpawned, runCommand, spawnServer } from '../spawned.js';

afterEach(killSpawned);

/** A port some other listener holds until `release()`. */
async function takenPort(): Promise<{ port: number; release(): Promise<void> }> {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as net.AddressInfo;
  return { port, release: () => new Promise((resolve) => holder.close(() => resolve())) };
}

/** The next start over `STRONGROOM_DATA_DIR` prints a root token that authenticates. */
async function nextStartPrintsAWorkingToken(STRONGROOM_DATA_DIR: string): Promise<void> {
  const server = await spawnServer({ STRONGROOM_DATA_DIR });
  expect(server.banner).not.toContain('made at the first start');
  expect(server.rootToken).toMatch(/^sr\./);
  const lookup = await request(server.url, { path: '/v1/auth/token/lookup-self', token: server.rootToken! });
  expect(lookup.status).toBe(200);
  expect(lookup.json.data.policies).toEqual(['root']);
  expect(await server.stop()).toBe(0);
}

const scratch = mkdtempSync(join(tmpdir(), 'strongroom-start-failures-'));
const garbage = join(scratch, 'not-a-certificate.pem');
writeFileSync(garbage, 'not PEM at all\n');

describe('a first start that fails', () => {
  it('on a port another process holds: exits 1 naming the address, and strands no root token', async () => {
    const STRONGROOM_DATA_DIR = dataDir();
    const taken = await takenPort();
    try {
      const failed = await runCommand(['server'], { STRONGROOM_DATA_DIR, PORT: String(taken.port) });
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain(`strongroom: cannot start on 127.0.0.1:${taken.port}`);
      expect(failed.stderr).toContain('EADDRINUSE');
      expect(failed.stderr).not.toContain('root token');
      expect(failed.stderr).not.toMatch(/^\s+at /m);
    } finally {
      await taken.release();
    }
    await nextStartPrintsAWorkingToken(STRONGROOM_DATA_DIR);
  }, 30_000);

  it.each([
    ['a certificate file that does not exist', join(scratch, 'missing.crt'), 'cannot read the TLS certificate or key'],
    ['a certificate file that is not PEM', garbage, 'cannot use the TLS certificate and key'],
  ])(
    'on %s: exits 1 saying so, and strands no root token',
    async (_, cert, message) => {
      const STRONGROOM_DATA_DIR = dataDir();
      const failed = await runCommand(['server'], {
        STRONGROOM_DATA_DIR,
        STRONGROOM_TLS_CERT_FILE: cert,
        STRONGROOM_TLS_KEY_FILE: garbage,
      });
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain(`strongroom: ${message}`);
      expect(failed.stderr).not.toMatch(/^\s+at /m);
      await nextStartPrintsAWorkingToken(STRONGROOM_DATA_DIR);
    },
    30_000,
  );

  it('on an audit file it cannot open: exits 1 naming the file, and strands no root token', async () => {
    const STRONGROOM_DATA_DIR = dataDir();
    const audit = join(scratch, 'no-such-folder', 'audit.log');
    const failed = await runCommand(['server'], { STRONGROOM_DATA_DIR, STRONGROOM_AUDIT_FILE: audit });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`the audit file ${JSON.stringify(audit)} cannot be opened`);
    expect(failed.stderr).not.toMatch(/^\s+at /m);
    await nextStartPrintsAWorkingToken(STRONGROOM_DATA_DIR);
  }, 30_000);
});
