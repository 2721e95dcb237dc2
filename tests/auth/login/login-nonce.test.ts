import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clocks.js';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { AuthEngine } from '../../../src/auth/auth-engine.js';
import { formatTimestamp } from '../../../src/lib/time.js';
import type { EngineResponse } from '../../../src/core/framework/request.js';
import { FakeCloud } from '../../support/fake-cloud.js';
import { FaultyStorage } from '../../support/faulty-storage.js';
import { testStorage } from '../../support/test-storage.js';
import {
  accessListEntry,
  grantOf,
  loginHarness,
  refusalOf,
  sampleField,
  SYNTHETIC,
  syntheticPkcs7,
  TELEPORT_2021,
  testSigner,
  UUID,
} from './login-harness.js';

const PKCS7 = sampleField(TELEPORT_2021, 'rsa2048');

async function sampleEngine(role: Record<string, unknown> = {}) {
  const h = loginHarness();
  h.seedSample(TELEPORT_2021);
  await h.role('web', { auth_type: 'ec2', bound_ami_id: TELEPORT_2021.imageId, ...role });
  const login = (body: Record<string, unknown> = {}) => h.login({ role: 'web', pkcs7: PKCS7, ...body });
  const entry = () => accessListEntry(h, TELEPORT_2021.instanceId);
  return { h, login, entry };
}

describe('nonce and replay protection', () => {
  it('returns a generated nonce once; re-logins must present it and get none back', async () => {
    const { h, login, entry } = await sampleEngine();
    const nonce = grantOf(await login()).metadata.nonce!;
    expect(nonce).toMatch(UUID);
    const created = await entry();

    h.clock.advance(60);
    const again = grantOf(await login({ nonce }));
    expect(again.metadata.nonce).toBeUndefined();
    expect(again.internal_data.access_list_created).toBe(created?.creation_time);
    expect(await entry()).toEqual({
      ...created,
      last_updated_time: formatTimestamp(h.clock.now()),
      expiration_time: formatTimestamp(h.clock.now().getTime() + 768 * 3600 * 1000),
    });

    expect(refusalOf(await login())).toEqual([403, 'client nonce mismatch']);
    expect(refusalOf(await login({ nonce: `${nonce}x` }))).toEqual([403, 'client nonce mismatch']);
    expect(refusalOf(await login({ nonce: nonce.toUpperCase() }))).toEqual([403, 'client nonce mismatch']);
  });

  it('allows a fresh login once the entry is deleted, with a new nonce', async () => {
    const { h, login } = await sampleEngine();
    const first = grantOf(await login()).metadata.nonce;
    expect((await h.remove(`identity-accesslist/${TELEPORT_2021.instanceId}`)).status).toBe(204);
    const second = grantOf(await login()).metadata.nonce;
    expect(second).toMatch(UUID);
    expect(second).not.toBe(first);
  });

  it('stores a client-chosen nonce without echoing it', async () => {
    const { login, entry } = await sampleEngine();
    expect(grantOf(await login({ nonce: 'my-own-strong-nonce' })).metadata.nonce).toBeUndefined();
    expect((await entry())?.client_nonce).toBe('my-own-strong-nonce');
    expect((await login({ nonce: 'my-own-strong-nonce' })).status).toBe(200);
  });

  it('an explicitly empty nonce disables reauthentication for the instance', async () => {
    const { login, entry } = await sampleEngine();
    const grant = grantOf(await login({ nonce: '' }));
    expect(grant.metadata.nonce).toBeUndefined();
    expect(await entry()).toMatchObject({ client_nonce: '', disallow_reauthentication: true });
    expect(refusalOf(await login({ nonce: '' }))).toEqual([403, 'reauthentication is disabled']);
    expect(refusalOf(await login())).toEqual([403, 'reauthentication is disabled']);
  });

  it('disallow_reauthentication grants one login per instance until the entry is deleted', async () => {
    const { h, login, entry } = await sampleEngine({ disallow_reauthentication: true });
    expect(grantOf(await login()).metadata.nonce).toBeUndefined();
    expect(await entry()).toMatchObject({ client_nonce: '', disallow_reauthentication: true });
    expect(refusalOf(await login())).toEqual([403, 'reauthentication is disabled']);
    expect(refusalOf(await login({ nonce: 'anything' }))).toEqual([403, 'reauthentication is disabled']);
    await h.remove(`identity-accesslist/${TELEPORT_2021.instanceId}`);
    expect((await login()).status).toBe(200);
  });

  it('refuses a nonce over 128 characters unless reauthentication is disabled anyway', async () => {
    const { login } = await sampleEngine();
    expect(refusalOf(await login({ nonce: 'n'.repeat(129) }))).toEqual([
      400,
      'client nonce exceeding the limit of 128 characters',
    ]);
    expect((await login({ nonce: 'n'.repeat(128) })).status).toBe(200);
    const disallowed = await sampleEngine({ disallow_reauthentication: true });
    expect((await disallowed.login({ nonce: 'n'.repeat(129) })).status).toBe(200);
  });

  it('refuses a stored entry without a nonce (an entry that was tampered with)', async () => {
    const { h, login } = await sampleEngine();
    await login();
    const key = `auth/identity-accesslist/${TELEPORT_2021.instanceId}`;
    const stored = JSON.parse(new TextDecoder().decode(await h.storage.get(key)));
    await h.storage.put(key, new TextEncoder().encode(JSON.stringify({ ...stored, client_nonce: '' })));
    expect(refusalOf(await login({ nonce: '' }))).toEqual([403, 'client nonce missing in stored identity']);
  });
});

describe('instance migration', () => {
  const T1 = '2026-01-01T00:00:00Z';
  const T2 = '2026-01-02T00:00:00Z';

  async function migrationEngine(allow: boolean) {
    const h = loginHarness();
    await h.trustTestSigner();
    h.addInstance(SYNTHETIC);
    await h.role('web', { auth_type: 'ec2', bound_ami_id: SYNTHETIC.imageId, allow_instance_migration: allow });
    const at = async (pendingTime: string, body: Record<string, unknown> = {}) =>
      h.login({ role: 'web', pkcs7: await syntheticPkcs7({ pendingTime }), ...body });
    const entry = () => accessListEntry(h, SYNTHETIC.instanceId);
    return { h, at, entry };
  }

  it('accepts a newer pendingTime without the old nonce, then stores the new nonce and pendingTime', async () => {
    const { at, entry } = await migrationEngine(true);
    const old = grantOf(await at(T1)).metadata.nonce!;
    const created = (await entry())?.creation_time;

    const migrated = grantOf(await at(T2)).metadata.nonce!;
    expect(migrated).toMatch(UUID);
    expect(migrated).not.toBe(old);
    expect(await entry()).toMatchObject({ client_nonce: migrated, pending_time: T2, creation_time: created });

    expect((await at(T2, { nonce: migrated })).status).toBe(200);
    expect(refusalOf(await at(T2, { nonce: old }))).toEqual([
      403,
      'client nonce mismatch and instance meta-data incorrect',
    ]);
    expect(refusalOf(await at(T1, { nonce: migrated }))).toEqual([
      403,
      'instance meta-data is older than the one used for previous login',
    ]);
  });

  it('stores a nonce the migrating client chose, without echoing it', async () => {
    const { at, entry } = await migrationEngine(true);
    await at(T1);
    expect(grantOf(await at(T2, { nonce: 'after-the-move' })).metadata.nonce).toBeUndefined();
    expect((await entry())?.client_nonce).toBe('after-the-move');
  });

  it('without allow_instance_migration a newer document still needs the nonce', async () => {
    const { at } = await migrationEngine(false);
    const nonce = grantOf(await at(T1)).metadata.nonce;
    expect(refusalOf(await at(T2))).toEqual([403, 'client nonce mismatch']);
    expect((await at(T2, { nonce })).status).toBe(200);
    expect(refusalOf(await at(T1, { nonce }))).toEqual([
      403,
      'instance meta-data is older than the one used for previous login',
    ]);
  });
});

describe('concurrent logins of one instance', () => {
  /** Both logins of a pair either fail or exactly one gets a nonce, which is then the stored one. */
  async function expectOneWinner(
    responses: EngineResponse[],
    stored: Record<string, unknown> | undefined,
  ): Promise<void> {
    const won = responses.filter((response) => response.status === 200);
    expect(won).toHaveLength(1);
    expect(grantOf(won[0]!).metadata.nonce).toBe(stored?.client_nonce);
    const lost = responses.filter((response) => response.status !== 200);
    expect(lost.map(refusalOf)).toEqual([[403, 'client nonce mismatch']]);
  }

  it('in one engine: exactly one first login wins, and its nonce is the stored one', async () => {
    const h = loginHarness();
    h.seedSample(TELEPORT_2021);
    await h.role('web', { auth_type: 'ec2', bound_ami_id: TELEPORT_2021.imageId });
    const responses = await Promise.all([
      h.login({ role: 'web', pkcs7: PKCS7 }),
      h.login({ role: 'web', pkcs7: PKCS7 }),
    ]);
    await expectOneWinner(responses, await accessListEntry(h, TELEPORT_2021.instanceId));
  });

  it('across engines sharing one storage, through compareAndPut', async () => {
    const shared = testStorage();
    let conflicts = 0;
    const storage = {
      get: (key: string) => shared.get(key),
      put: (key: string, value: Uint8Array) => shared.put(key, value),
      delete: (key: string) => shared.delete(key),
      list: (prefix: string) => shared.list(prefix),
      compareAndPut: async (key: string, expected: Uint8Array | undefined, value: Uint8Array) => {
        const done = await shared.compareAndPut(key, expected, value);
        if (!done) conflicts += 1;
        return done;
      },
    };
    const clock = new ManualClock('2026-01-01T00:10:00Z');
    const cloud = new FakeCloud();
    const engines = [0, 1].map(() => new AuthEngine({ storage, clock, cloud, env: {} }));
    const { trusted } = await testSigner();
    await engines[0]!.handle({
      method: 'POST',
      path: 'config/certificate/test-ca',
      body: { aws_public_cert: trusted.pem },
    });
    await engines[0]!.handle({
      method: 'POST',
      path: 'role/web',
      body: { auth_type: 'ec2', bound_account_id: SYNTHETIC.accountId },
    });
    for (let n = 0; n < 8; n++) {
      const instanceId = `i-00000000000000${String(n).padStart(3, '0')}`;
      cloud.addInstance({ instanceId, imageId: SYNTHETIC.imageId });
      const pkcs7 = await syntheticPkcs7({ instanceId });
      const responses = await Promise.all(
        engines.map((engine) => engine.handle({ method: 'POST', path: 'login', body: { role: 'web', pkcs7 } })),
      );
      const stored = await engines[1]!.handle({ method: 'GET', path: `identity-accesslist/${instanceId}` });
      await expectOneWinner(responses, (stored.body as { data: Record<string, unknown> }).data);
    }
    // The engines raced for real: the losing login re-ran its nonce check against the winner's entry.
    expect(conflicts).toBeGreaterThan(0);
  });
});

describe('storage faults', () => {
  it('a storage failure at any step answers 500 and leaves no entry; the commit is the last step', async () => {
    const storage = new FaultyStorage(new MemoryStorage());
    const h = loginHarness({ storage });
    h.seedSample(TELEPORT_2021);
    await h.role('web', { auth_type: 'ec2', bound_ami_id: TELEPORT_2021.imageId });
    storage.arm(undefined);
    expect((await h.login({ role: 'web', pkcs7: PKCS7 })).status).toBe(200);
    const steps = storage.calls;
    await h.remove(`identity-accesslist/${TELEPORT_2021.instanceId}`);

    for (let n = 1; n <= steps; n++) {
      storage.arm(n);
      const response = await h.login({ role: 'web', pkcs7: PKCS7 });
      storage.arm(undefined);
      const [status, message] = refusalOf(response);
      expect(status, `step ${n}`).toBe(500);
      expect(message).toMatch(/^storage (read|write|list) failed$/);
      expect(await accessListEntry(h, TELEPORT_2021.instanceId)).toBeUndefined();
    }
    expect((await h.login({ role: 'web', pkcs7: PKCS7 })).status).toBe(200);
  });
});
