// Rotating the audit file as logrotate's `create` does: move it, send SIGHUP, and the server (the real command) goes
// on, writing the next entries to a new file of mode 0600. Every entry is in exactly one of the two files, and the
// entries of requests answered before the signal are in the moved one.
import { mkdirSync, mkdtempSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { JsonStore } from '../../../src/core/store/stored-json.js';
import { AuditLog } from '../../../src/server/audit/audit-log.js';
import { auditEntries, readEvent } from '../audit-entries.js';
import { request } from '../harness.js';
import { killSpawned, spawnServer, type SpawnedServer } from '../spawned.js';

afterEach(killSpawned);

const TOKEN = 'sr.audit-rotation-root';

async function write(server: SpawnedServer, name: string): Promise<void> {
  const answer = await request(server.url, {
    method: 'POST',
    path: `/v1/secret/data/${name}`,
    token: TOKEN,
    body: { data: { n: name } },
  });
  expect(answer.status).toBe(200);
}

/** Sends SIGHUP and waits for the server to say what it did. */
async function hangUp(server: SpawnedServer): Promise<string> {
  let said = '';
  const answered = new Promise<string>((resolve) =>
    server.child.stderr!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('SIGHUP')) resolve(said);
    }),
  );
  server.child.kill('SIGHUP');
  return answered;
}

describe('SIGHUP', () => {
  it('reopens a moved audit file: new entries land in a new 0600 file, none lost or written twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strongroom-audit-rotation-'));
    const audit = join(dir, 'audit.log');
    const server = await spawnServer({ STRONGROOM_ROOT_TOKEN: TOKEN, STRONGROOM_AUDIT_FILE: audit });

    // Writers run throughout; the ones answered before the signal are known.
    const names = Array.from({ length: 60 }, (_, i) => `w${i}`);
    const answeredBeforeHup: string[] = [];
    let signalled = false;
    const writers = [0, 1].map(async (lane) => {
      for (const name of names.filter((_, i) => i % 2 === lane)) {
        await write(server, name);
        if (!signalled) answeredBeforeHup.push(name);
        if (name === 'w20') {
          renameSync(audit, `${audit}.1`);
          signalled = true;
          expect(await hangUp(server)).toContain(`SIGHUP: reopened the audit file ${audit}`);
        }
      }
    });
    await Promise.all(writers);
    await write(server, 'after');

    expect(server.child.exitCode).toBeNull();
    expect((await request(server.url, { path: '/v1/sys/health' })).status).toBe(200);
    expect(statSync(audit).mode & 0o777).toBe(0o600);
    const moved = auditEntries(`${audit}.1`);
    const fresh = auditEntries(audit);
    for (const name of answeredBeforeHup) {
      expect(moved).toContain(`request:secret/data/${name}`);
      expect(moved).toContain(`response:secret/data/${name}`);
    }
    expect(fresh).toContain('response:secret/data/after');
    expect(moved).not.toContain('request:secret/data/after');
    // Every write, health checks aside, has exactly one request and one response entry across the two files.
    const all = [...moved, ...fresh].filter((entry) => entry.includes('secret/data/'));
    expect(all.toSorted()).toEqual(
      [...names, 'after'].flatMap((name) => [`request:secret/data/${name}`, `response:secret/data/${name}`]).toSorted(),
    );
    expect(await server.stop()).toBe(0);
  }, 30_000);

  it('ends nothing without an audit file, or when the file is not moved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strongroom-audit-rotation-'));
    const audit = join(dir, 'audit.log');
    const plain = await spawnServer({ STRONGROOM_ROOT_TOKEN: TOKEN });
    expect(await hangUp(plain)).toContain('SIGHUP: no audit file to reopen');
    await write(plain, 'still-serving');

    const audited = await spawnServer({ STRONGROOM_ROOT_TOKEN: TOKEN, STRONGROOM_AUDIT_FILE: audit });
    await write(audited, 'one');
    await hangUp(audited);
    await write(audited, 'two');
    expect(auditEntries(audit).filter((entry) => entry.includes('secret/data/'))).toEqual([
      'request:secret/data/one',
      'response:secret/data/one',
      'request:secret/data/two',
      'response:secret/data/two',
    ]);
    expect(await plain.stop()).toBe(0);
    expect(await audited.stop()).toBe(0);
  }, 30_000);
});

describe('SIGHUP with a device enabled over the API', () => {
  it('reopens its file too, beside the configured one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strongroom-audit-rotation-'));
    const configured = join(dir, 'configured.log');
    const api = join(dir, 'api.log');
    const server = await spawnServer({ STRONGROOM_ROOT_TOKEN: TOKEN, STRONGROOM_AUDIT_FILE: configured });
    const enabled = await request(server.url, {
      method: 'PUT',
      path: '/v1/sys/audit/api',
      token: TOKEN,
      body: { type: 'file', options: { file_path: api } },
    });
    expect(enabled.status).toBe(204);
    await write(server, 'before');
    renameSync(api, `${api}.1`);
    const said = await hangUp(server);
    expect(said).toContain(`SIGHUP: reopened the audit file ${configured}`);
    expect(said).toContain(`SIGHUP: reopened the audit file ${api}`);
    await write(server, 'after');
    expect(auditEntries(`${api}.1`)).toContain('response:secret/data/before');
    expect(auditEntries(`${api}.1`)).not.toContain('request:secret/data/after');
    expect(auditEntries(api)).toEqual(['request:secret/data/after', 'response:secret/data/after']);
    expect(statSync(api).mode & 0o777).toBe(0o600);
    expect(await server.stop()).toBe(0);
  }, 30_000);
});

describe('AuditLog.reopen()', () => {
  it('reports a path it cannot open, refuses writes meanwhile, and recovers once the path can be opened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strongroom-audit-reopen-'));
    const folder = join(dir, 'logs');
    mkdirSync(folder);
    const file = join(folder, 'audit.log');
    const store = new JsonStore(new MemoryStorage());
    const log = new AuditLog({ store, configured: { file, key: Buffer.alloc(32, 1) }, refreshMs: 5000 });
    await log.open();
    await log.logRequest(readEvent('before'));
    renameSync(folder, join(dir, 'logs.moved'));
    await expect(log.reopen()).rejects.toThrow(`the audit file ${JSON.stringify(file)} cannot be opened`);
    await expect(log.logRequest(readEvent('refused'))).rejects.toThrow('audit log could not be written');
    mkdirSync(folder);
    await log.logRequest(readEvent('after'));
    await log.close();
    expect(auditEntries(join(dir, 'logs.moved', 'audit.log'))).toEqual(['request:before']);
    expect(auditEntries(file)).toEqual(['request:after']);
  });
});
