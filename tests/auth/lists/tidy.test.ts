import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { updateAccessListEntry } from '../../../src/auth/lists/accesslist.js';
import { AuthContext } from '../../../src/auth/context/auth-context.js';
import type { Storage } from '../../../src/ports/storage.js';
import { FaultyStorage } from '../../support/faulty-storage.js';
import { FakeCloud } from '../../support/fake-cloud.js';
import { testStorage } from '../../support/test-storage.js';
import { adminHarness, dataOf, warningsOf, type AdminHarness } from '../admin-harness.js';

const HOUR = 3600;

/** Seeds access-list entries expiring at the given offsets (seconds from the harness's start) and one denied tag. */
async function seeded(options: { storage?: Storage; mountMaxTtl?: number } = {}) {
  const storage = options.storage ?? testStorage();
  const h = adminHarness({ storage, mountMaxTtl: options.mountMaxTtl ?? HOUR });
  const context = new AuthContext({ storage, clock: h.clock, cloud: new FakeCloud() });
  const start = h.clock.now().getTime();
  for (const [id, offset] of [
    ['i-early', HOUR],
    ['i-late', 10 * HOUR],
  ] as const) {
    await updateAccessListEntry(context, id, () => ({
      role: 'web',
      client_nonce: 'n',
      creation_time: new Date(start).toISOString(),
      disallow_reauthentication: false,
      pending_time: '2026-01-01T00:00:00Z',
      expiration_time: new Date(start + offset * 1000).toISOString(),
      last_updated_time: new Date(start).toISOString(),
    }));
  }
  await h.write('role/web', { auth_type: 'ec2', bound_ami_id: 'ami-1', role_tag: 'VaultRole' });
  const tag = dataOf(await h.write('role/web/tag', {})).tag_value as string;
  await h.write(`roletag-denylist/${tag}`);
  return { h, tag };
}

async function state(h: AdminHarness) {
  const accessList = await h.list('identity-accesslist');
  const denyList = await h.list('roletag-denylist');
  return {
    accessList: accessList.status === 200 ? (dataOf(accessList).keys as string[]) : [],
    denied: denyList.status === 200 ? (dataOf(denyList).keys as string[]).length : 0,
  };
}

describe('config/tidy', () => {
  for (const kind of ['identity-accesslist', 'roletag-denylist', 'identity-whitelist', 'roletag-blacklist']) {
    it(`config/tidy/${kind}: create, read, update, delete`, async () => {
      const h = adminHarness();
      const path = `config/tidy/${kind}`;
      expect((await h.read(path)).status).toBe(404);
      expect((await h.write(path, { safety_buffer: '60', disable_periodic_tidy: true })).status).toBe(204);
      expect(dataOf(await h.read(path))).toEqual({ safety_buffer: 60, disable_periodic_tidy: true });
      await h.write(path, { disable_periodic_tidy: false });
      expect(dataOf(await h.read(path))).toEqual({ safety_buffer: 60, disable_periodic_tidy: false });
      expect((await h.remove(path)).status).toBe(204);
      expect((await h.read(path)).status).toBe(404);
      await h.write(path, { disable_periodic_tidy: 'true' });
      expect(dataOf(await h.read(path))).toEqual({ safety_buffer: 72 * HOUR, disable_periodic_tidy: true });
      expect((await h.write(path, { safety_buffer: 'soon' })).status).toBe(400);
    });
  }

  it('keeps the two settings apart, and each spelling reaches the same setting', async () => {
    const h = adminHarness();
    await h.write('config/tidy/identity-whitelist', { safety_buffer: '1h' });
    expect(dataOf(await h.read('config/tidy/identity-accesslist')).safety_buffer).toBe(HOUR);
    expect((await h.read('config/tidy/roletag-denylist')).status).toBe(404);
  });
});

describe('manual tidy', () => {
  it('answers 202 and, in the background, removes entries past expiration plus the 72h default buffer', async () => {
    const { h } = await seeded();
    h.clock.advance(HOUR + 72 * HOUR + 1);
    const response = await h.write('tidy/identity-accesslist');
    expect(response.status).toBe(202);
    expect(warningsOf(response)[0]).toMatch(/^Tidy operation successfully started/);
    await h.engine.idle();
    expect(await state(h)).toEqual({ accessList: ['i-late'], denied: 1 });

    expect((await h.write('tidy/roletag-denylist')).status).toBe(202);
    await h.engine.idle();
    expect(await state(h)).toEqual({ accessList: ['i-late'], denied: 0 });
  });

  it('honours the safety_buffer it is given', async () => {
    const { h } = await seeded();
    h.clock.advance(2 * HOUR);
    await h.write('tidy/identity-accesslist', { safety_buffer: '2h' });
    await h.engine.idle();
    expect((await state(h)).accessList).toEqual(['i-early', 'i-late']);
    await h.write('tidy/identity-accesslist', { safety_buffer: '30m' });
    await h.engine.idle();
    expect((await state(h)).accessList).toEqual(['i-late']);
    expect((await h.write('tidy/identity-accesslist', { safety_buffer: -1 })).status).toBe(400);
  });

  it('answers 200 "already in progress" while a tidy of that list runs', async () => {
    const inner = testStorage();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let hold = false;
    const gated: Storage = {
      get: (key) => inner.get(key),
      put: (key, value) => inner.put(key, value),
      delete: (key) => inner.delete(key),
      compareAndPut: (key, expected, value) => inner.compareAndPut(key, expected, value),
      list: async (prefix) => {
        if (hold) await gate;
        return inner.list(prefix);
      },
    };
    const { h } = await seeded({ storage: gated });
    hold = true;
    expect((await h.write('tidy/identity-accesslist')).status).toBe(202);
    const second = await h.write('tidy/identity-accesslist');
    expect(second.status).toBe(200);
    expect(warningsOf(second)).toEqual(['Tidy operation already in progress.']);
    expect((await h.write('tidy/roletag-denylist')).status).toBe(202);
    release();
    await h.engine.idle();
    expect((await h.write('tidy/identity-accesslist')).status).toBe(202);
    await h.engine.idle();
  });

  it('reports a failed background tidy through onInternalError, after trying every entry', async () => {
    const storage = new FaultyStorage(new MemoryStorage());
    const { h } = await seeded({ storage });
    h.clock.advance(100 * HOUR);
    storage.arm(1, { only: ['get'] });
    expect((await h.write('tidy/identity-accesslist')).status).toBe(202);
    await h.engine.idle();
    expect(h.internalErrors).toHaveLength(1);
    // The entry whose read failed stays; the other expired one is still removed.
    expect((await state(h)).accessList).toEqual(['i-early']);
  });

  it('works on the deprecated paths too', async () => {
    const { h } = await seeded();
    h.clock.advance(100 * HOUR);
    expect((await h.write('tidy/identity-whitelist')).status).toBe(202);
    expect((await h.write('tidy/roletag-blacklist')).status).toBe(202);
    await h.engine.idle();
    expect(await state(h)).toEqual({ accessList: [], denied: 0 });
  });
});

describe('periodic tidy', () => {
  it('runs both tidies at most once an hour with the 72h default buffer', async () => {
    const { h } = await seeded();
    h.clock.advance(HOUR + 72 * HOUR + 1);
    await h.engine.periodic();
    expect(await state(h)).toEqual({ accessList: ['i-late'], denied: 0 });

    // Within the hour nothing runs, even though i-late has become due.
    h.clock.advance(10 * HOUR - HOUR - 1);
    await h.engine.periodic();
    expect((await state(h)).accessList).toEqual(['i-late']);
    h.clock.advance(HOUR);
    await h.engine.periodic();
    expect((await state(h)).accessList).toEqual([]);
  });

  it('follows config/tidy: a configured buffer, and disable_periodic_tidy', async () => {
    const { h } = await seeded();
    await h.write('config/tidy/identity-accesslist', { safety_buffer: 0 });
    await h.write('config/tidy/roletag-denylist', { disable_periodic_tidy: true });
    h.clock.advance(HOUR + 1);
    await h.engine.periodic();
    expect(await state(h)).toEqual({ accessList: ['i-late'], denied: 1 });
    h.clock.advance(100 * HOUR);
    await h.engine.periodic();
    expect(await state(h)).toEqual({ accessList: [], denied: 1 });
    await h.write('tidy/roletag-denylist');
    await h.engine.idle();
    expect((await state(h)).denied).toBe(0);
  });

  it('rejects when a tidy fails, and still runs the other list', async () => {
    const storage = new FaultyStorage(new MemoryStorage());
    const { h } = await seeded({ storage });
    h.clock.advance(100 * HOUR);
    storage.arm(1, { only: ['list'] });
    await expect(h.engine.periodic()).rejects.toThrow('storage list failed');
    const after = await state(h);
    const accessListTidied = after.accessList.length === 0;
    const denyListTidied = after.denied === 0;
    expect(accessListTidied !== denyListTidied).toBe(true);
  });
});
