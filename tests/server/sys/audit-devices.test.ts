// Audit devices enabled and disabled over the API (PUT|DELETE sys/audit/:path), as hvac's test_audit.py drives them:
// listed by GET sys/audit, each with its own HMAC key for sys/audit-hash, durable in the storage and written by every
// server over it (each process checks the table in the background, and at once on its own sys/audit calls), and a
// request refused only when no device can record it.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vault from 'node-vault';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { JsonStore } from '../../../src/core/store/stored-json.js';
import { AuditLog } from '../../../src/server/audit/audit-log.js';
import { SqliteStorage } from '../../../src/sqlite.js';
import { auditEntries, readEvent } from '../audit-entries.js';
import { request, startServer, type RawRequest, type Started } from '../harness.js';

const ROOT = 'sr.audit-devices-root';
const dir = mkdtempSync(join(tmpdir(), 'strongroom-audit-devices-'));
let started: Started;
let configured: string;
const send = (options: RawRequest) => request(started.url, { token: ROOT, ...options });

beforeAll(async () => {
  configured = join(dir, 'configured.log');
  started = await startServer({ rootToken: ROOT, auditFile: configured });
}, 60_000);

afterAll(() => started?.stop());

describe('what hvac test_audit.py sends', () => {
  it('enables a file device with options.path, lists it, and disables it (twice: no error)', async () => {
    const file = join(dir, 'hvac.log');
    const enabled = await send({
      method: 'POST',
      path: '/v1/sys/audit/test-tempfile',
      body: { type: 'file', options: { path: file } },
    });
    expect(enabled.status).toBe(204);
    const listed = await send({ path: '/v1/sys/audit' });
    expect(listed.json.data['test-tempfile/']).toEqual({
      type: 'file',
      description: '',
      options: { path: file },
      local: false,
      path: 'test-tempfile/',
    });
    const hash = await send({
      method: 'POST',
      path: '/v1/sys/audit-hash/test-tempfile',
      body: { input: 'hvac-rox' },
    });
    expect(hash.json.data.hash).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect((await send({ method: 'DELETE', path: '/v1/sys/audit/test-tempfile' })).status).toBe(204);
    expect((await send({ path: '/v1/sys/audit' })).json.data).not.toHaveProperty('test-tempfile/');
    expect((await send({ method: 'DELETE', path: '/v1/sys/audit/test-tempfile' })).status).toBe(204);
    const unknown = await send({
      method: 'POST',
      path: '/v1/sys/audit-hash/test-tempfile',
      body: { input: 'hvac-rox' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors[0]).toContain('unknown audit backend');
    const empty = await send({ method: 'POST', path: '/v1/sys/audit-hash/file', body: { input: '' } });
    expect(empty.json).toEqual({ errors: ['the "input" parameter is empty'] });
  });
});

describe('what node-vault sends', () => {
  it('enableAudit, audits and disableAudit work as against Vault', async () => {
    const client = vault({ endpoint: started.url, token: ROOT });
    await client.enableAudit({ name: 'nodevault', type: 'file', options: { file_path: join(dir, 'node-vault.log') } });
    expect((await client.audits()).data['nodevault/']).toMatchObject({ type: 'file', path: 'nodevault/' });
    await client.disableAudit({ name: 'nodevault' });
    expect((await client.audits()).data).not.toHaveProperty('nodevault/');
  });
});

describe('devices enabled over the API', () => {
  it('records requests from then on, each device with its own key', async () => {
    const file = join(dir, 'second.log');
    await send({ method: 'PUT', path: '/v1/sys/audit/second', body: { type: 'file', options: { file_path: file } } });
    await send({ method: 'POST', path: '/v1/secret/data/recorded', body: { data: { password: 'hunter2' } } });
    expect(auditEntries(file)).toEqual(
      expect.arrayContaining(['request:secret/data/recorded', 'response:secret/data/recorded']),
    );
    const hashes = await Promise.all(
      ['file', 'second'].map(
        async (device) =>
          (await send({ method: 'POST', path: `/v1/sys/audit-hash/${device}`, body: { input: 'hunter2' } })).json.data
            .hash as string,
      ),
    );
    expect(hashes[0]).not.toBe(hashes[1]);
    // Each device writes its own hash of the secret, never the secret.
    expect(readFileSync(configured, 'utf8')).toContain(hashes[0]);
    expect(readFileSync(file, 'utf8')).toContain(hashes[1]);
    expect(readFileSync(file, 'utf8')).not.toContain('hunter2');
    expect((await send({ method: 'DELETE', path: '/v1/sys/audit/second' })).status).toBe(204);
    // Nothing more is written there once it is disabled.
    await send({ path: '/v1/secret/data/recorded' });
    expect(auditEntries(file).filter((entry) => entry === 'request:secret/data/recorded')).toHaveLength(1);
  });

  it('lists the configured device as file/, which the API can neither replace nor disable', async () => {
    const listed = await send({ path: '/v1/sys/audit' });
    expect(listed.json.data['file/']).toMatchObject({
      type: 'file',
      options: { file_path: configured },
      path: 'file/',
    });
    const replace = await send({
      method: 'PUT',
      path: '/v1/sys/audit/file',
      body: { type: 'file', options: { file_path: join(dir, 'x.log') } },
    });
    expect(replace.status).toBe(400);
    expect(replace.json.errors).toEqual(['path already in use']);
    const disable = await send({ method: 'DELETE', path: '/v1/sys/audit/file' });
    expect(disable.status).toBe(400);
    expect(disable.json.errors).toEqual(['cannot disable configuration-managed audit device']);
  });

  it('refuses a path in use', async () => {
    const body = { type: 'file', options: { file_path: join(dir, 'twice.log') } };
    expect((await send({ method: 'PUT', path: '/v1/sys/audit/twice', body })).status).toBe(204);
    const again = await send({ method: 'PUT', path: '/v1/sys/audit/twice/', body });
    expect(again.status).toBe(400);
    expect(again.json.errors).toEqual(['path already in use']);
    expect((await send({ method: 'DELETE', path: '/v1/sys/audit/twice' })).status).toBe(204);
  });

  it.each([
    [{ type: 'syslog' }, /unknown backend type: "syslog"/],
    [{}, /"type" is required/],
    [{ type: 'file' }, /file_path is required/],
    [{ type: 'file', options: { file_path: 'relative.log' } }, /file_path must be an absolute path/],
    [{ type: 'file', options: { file_path: '/tmp/a.log', log_raw: 'true' } }, /option "log_raw" is not supported/],
    [{ type: 'file', options: { file_path: '/tmp/a.log', mode: 'rw' } }, /invalid mode "rw"/],
    [{ type: 'file', options: { file_path: 7 } }, /"options" must map names to strings/],
    [{ type: 'file', options: { file_path: '/nonexistent-strongroom/a.log' } }, /audit file .* cannot be opened/],
  ])('refuses %j with a clear 400', async (body, message) => {
    const refused = await send({ method: 'PUT', path: '/v1/sys/audit/bad', body });
    expect(refused.status).toBe(400);
    expect(refused.json.errors[0]).toMatch(message);
    expect((await send({ path: '/v1/sys/audit' })).json.data).not.toHaveProperty('bad/');
  });

  it('proceeds while one device can record; refuses once none can', async () => {
    await send({
      method: 'PUT',
      path: '/v1/sys/audit/full',
      body: { type: 'file', options: { file_path: '/dev/full' } },
    });
    const write = await send({ method: 'POST', path: '/v1/secret/data/one-fails', body: { data: { a: 'b' } } });
    expect(write.status).toBe(200);
    expect(auditEntries(configured)).toContain('response:secret/data/one-fails');
    expect((await send({ method: 'DELETE', path: '/v1/sys/audit/full' })).status).toBe(204);

    const alone = await startServer({ rootToken: 'sr.alone' });
    try {
      const enable = { type: 'file', options: { file_path: '/dev/full' } };
      const call = (options: RawRequest) => request(alone.url, { token: 'sr.alone', ...options });
      expect((await call({ method: 'PUT', path: '/v1/sys/audit/full', body: enable })).status).toBe(204);
      const refused = await call({ method: 'POST', path: '/v1/secret/data/x', body: { data: { a: 'b' } } });
      expect(refused.status).toBe(500);
      expect(refused.json).toEqual({ errors: ['audit log could not be written: the request is refused'] });
      expect(await alone.app.kv.read('x').catch(() => undefined)).toBeUndefined();
    } finally {
      await alone.stop();
    }
  });
});

describe('two servers over one SQLite file', () => {
  it("a device one enables records the other's requests after its next check, until it is disabled", async () => {
    const database = join(dir, 'shared.db');
    const file = join(dir, 'shared.log');
    // The second server checks the table when it lists it (GET sys/audit), as an operator would after enabling.
    const one = await startServer({
      rootToken: 'sr.shared',
      storage: new SqliteStorage({ path: database }),
      auditRefreshMs: 0,
    });
    const two = await startServer({
      rootToken: 'sr.shared',
      storage: new SqliteStorage({ path: database }),
      auditRefreshMs: 0,
    });
    try {
      const call = (server: Started, options: RawRequest) => request(server.url, { token: 'sr.shared', ...options });
      await call(two, { method: 'POST', path: '/v1/secret/data/before', body: { data: { a: 1 } } });
      const enabled = await call(one, {
        method: 'PUT',
        path: '/v1/sys/audit/shared',
        body: { type: 'file', options: { file_path: file } },
      });
      expect(enabled.status).toBe(204);
      expect((await call(two, { path: '/v1/sys/audit' })).json.data['shared/']).toMatchObject({ type: 'file' });
      await call(two, { method: 'POST', path: '/v1/secret/data/during', body: { data: { a: 2 } } });
      expect(auditEntries(file)).toEqual(
        expect.arrayContaining(['request:secret/data/during', 'response:secret/data/during']),
      );
      expect(auditEntries(file)).not.toContain('request:secret/data/before');
      // Both write with the device's one key: a hash asked of either server is the one in the file.
      const hash = (server: Started) =>
        call(server, { method: 'POST', path: '/v1/sys/audit-hash/shared', body: { input: 'x' } });
      expect((await hash(one)).json.data.hash).toBe((await hash(two)).json.data.hash);

      expect((await call(one, { method: 'DELETE', path: '/v1/sys/audit/shared' })).status).toBe(204);
      expect((await call(two, { path: '/v1/sys/audit' })).json.data).not.toHaveProperty('shared/');
      await call(two, { method: 'POST', path: '/v1/secret/data/after', body: { data: { a: 3 } } });
      expect(auditEntries(file)).not.toContain('request:secret/data/after');
    } finally {
      await one.stop();
      await two.stop();
    }
  });
});

describe('the periodic check of the device table', () => {
  /** Lets a background reading of the table finish: a bounded number of turns of the event loop, no clock. */
  async function settle(log: AuditLog): Promise<boolean> {
    for (let turn = 0; turn < 100 && !log.active(); turn++) await new Promise((resolve) => setImmediate(resolve));
    return log.active();
  }

  it("a process picks up another one's device in the background once its reading is older than refreshMs", async () => {
    const store = new JsonStore(new MemoryStorage());
    const file = join(dir, 'periodic.log');
    const enabling = new AuditLog({ store, refreshMs: 3_600_000 });
    const checking = new AuditLog({ store, refreshMs: 0 });
    const late = new AuditLog({ store, refreshMs: 3_600_000 });
    await Promise.all([enabling.open(), checking.open(), late.open()]);
    expect(checking.active()).toBe(false);
    await enabling.enable('periodic', { type: 'file', options: { file_path: file } });
    expect(enabling.active()).toBe(true);
    expect(await settle(checking)).toBe(true);
    await checking.logRequest(readEvent('seen'));
    expect(auditEntries(file)).toEqual(['request:seen']);
    // Within its hour, the other process keeps the table it read; listing the devices reads it at once.
    expect(await settle(late)).toBe(false);
    expect(Object.keys(await late.devices())).toEqual(['periodic/']);
    expect(late.active()).toBe(true);
    await Promise.all([enabling.close(), checking.close(), late.close()]);
  });
});
