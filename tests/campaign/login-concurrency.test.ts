import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { AuthEngine } from '../../src/auth/auth-engine.js';
import type { AuthGrant, EngineResponse } from '../../src/core/framework/request.js';
import type { Storage } from '../../src/ports/storage.js';
import { FakeCloud } from '../support/fake-cloud.js';
import { SYNTHETIC, syntheticPkcs7, testSigner } from '../auth/login/login-harness.js';
import { testStorage } from '../support/test-storage.js';
import { authProblems } from './support/invariants.js';
import { CAMPAIGN_TIMEOUT, scaled } from './support/scale.js';
import { FAULT_KINDS, faultyStorage, InterleavingStorage, type ArmableStorage } from './support/storages.js';

/**
 * ec2 logins of one instance racing each other across engines, tidy running during logins, and storage faults of
 * every kind at every step of a login: the nonce rules hold whatever the interleaving.
 */

const START = '2026-03-01T12:00:00Z';
const INSTANCE = SYNTHETIC.instanceId;

interface Cluster {
  storage: Storage;
  engines: AuthEngine[];
  cloud: FakeCloud;
  clock: ManualClock;
  faults: unknown[];
  login(engine: number, body: Record<string, unknown>): Promise<EngineResponse>;
  entry(instanceId?: string): Promise<Record<string, unknown> | undefined>;
}

/** Engines (processes) over one storage, all trusting the test signer, with role `web` for the synthetic instance. */
async function cluster(
  options: {
    engines?: number;
    role?: Record<string, unknown>;
    storage?: (inner: Storage, index: number) => Storage;
  } = {},
): Promise<Cluster> {
  const storage = testStorage();
  const cloud = new FakeCloud();
  const clock = new ManualClock(START);
  const faults: unknown[] = [];
  const wrap = options.storage ?? ((inner, index) => new InterleavingStorage(inner, 31 + index));
  const engines = Array.from(
    { length: options.engines ?? 3 },
    (_, index) =>
      new AuthEngine({
        storage: wrap(storage, index),
        cloud,
        clock,
        env: {},
        onInternalError: (error) => faults.push(error),
      }),
  );
  const admin = new AuthEngine({ storage, cloud, clock, env: {} });
  const { trusted } = await testSigner();
  expect(
    (await admin.handle({ method: 'POST', path: 'config/certificate/test-ca', body: { aws_public_cert: trusted.pem } }))
      .status,
  ).toBe(204);
  const role = { auth_type: 'ec2', bound_account_id: SYNTHETIC.accountId, ...options.role };
  expect((await admin.handle({ method: 'POST', path: 'role/web', body: role })).status).toBe(204);
  cloud.addInstance({ instanceId: INSTANCE, imageId: SYNTHETIC.imageId });
  return {
    storage,
    engines,
    cloud,
    clock,
    faults,
    login: (engine, body) =>
      (engines[engine % engines.length] as AuthEngine).handle({
        method: 'POST',
        path: 'login',
        body: { role: 'web', ...body },
      }),
    entry: async (instanceId = INSTANCE) => {
      const response = await admin.handle({ method: 'GET', path: `identity-accesslist/${instanceId}` });
      return response.status === 200 ? (response.body as { data: Record<string, unknown> }).data : undefined;
    },
  };
}

const grantOf = (response: EngineResponse) => (response.body as { auth: AuthGrant }).auth;
const refusal = (response: EngineResponse) => [response.status, (response.body as { errors?: string[] }).errors?.[0]];

describe('concurrent logins of one instance', () => {
  it(
    'first logins across engines: exactly one wins, and the nonce it hands out is the stored one',
    async () => {
      for (let round = 0; round < scaled(3, 60); round++) {
        const c = await cluster({ engines: 4 });
        const pkcs7 = await syntheticPkcs7();
        const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => c.login(i, { pkcs7 })));
        const won = responses.filter((response) => response.status === 200);
        expect(won).toHaveLength(1);
        expect(grantOf(won[0] as EngineResponse).metadata.nonce).toBe((await c.entry())?.client_nonce);
        for (const lost of responses.filter((response) => response.status !== 200))
          expect(refusal(lost)).toEqual([403, 'client nonce mismatch']);
        expect(c.faults).toEqual([]);
      }
    },
    CAMPAIGN_TIMEOUT,
  );

  it(
    're-logins racing with right, wrong, missing and opting-out nonces: only the right nonce gets in, and it stays the stored one',
    async () => {
      const c = await cluster();
      const pkcs7 = await syntheticPkcs7();
      const nonce = grantOf(await c.login(0, { pkcs7 })).metadata.nonce as string;
      type Attempt = { body: Record<string, unknown>; expected: [number, string | undefined] };
      const times = (count: number, attempt: (i: number) => Attempt) =>
        Array.from({ length: count }, (_, i) => attempt(i));
      const attempts: Attempt[] = [
        ...times(5, () => ({ body: { pkcs7, nonce }, expected: [200, undefined] })),
        ...times(3, (i) => ({
          body: { pkcs7, nonce: `${nonce.slice(0, -2)}x${i}` },
          expected: [403, 'client nonce mismatch'],
        })),
        ...times(3, () => ({ body: { pkcs7 }, expected: [403, 'client nonce mismatch'] })),
        ...times(2, () => ({ body: { pkcs7, nonce: '' }, expected: [403, 'reauthentication is disabled'] })),
      ];
      for (let round = 0; round < scaled(3, 60); round++) {
        const responses = await Promise.all(attempts.map(({ body }, i) => c.login(i, body)));
        expect(responses.map(refusal)).toEqual(attempts.map(({ expected }) => expected));
        // A successful re-login never hands out a nonce: the client chose it.
        for (const response of responses.filter((r) => r.status === 200))
          expect(grantOf(response).metadata.nonce).toBeUndefined();
        expect(await c.entry()).toMatchObject({ client_nonce: nonce, disallow_reauthentication: false });
      }
      expect(await authProblems(c.storage)).toEqual([]);
      expect(c.faults).toEqual([]);
    },
    CAMPAIGN_TIMEOUT,
  );

  it(
    'migrations racing each other: one per pendingTime wins, and the old nonce is done with',
    async () => {
      const c = await cluster({ role: { allow_instance_migration: true } });
      const nonce = grantOf(await c.login(0, { pkcs7: await syntheticPkcs7() })).metadata.nonce as string;
      for (let round = 1; round <= scaled(3, 60); round++) {
        // The instance moved to a new host: its document has a newer pendingTime, and the clients lost the nonce.
        const documentTime = new Date(Date.parse('2026-01-01T00:00:00Z') + round * 60_000)
          .toISOString()
          .replace('.000', '');
        const pkcs7 = await syntheticPkcs7({ pendingTime: documentTime });
        const chosen = Array.from({ length: 4 }, (_, i) => `round-${round}-migration-${i}`);
        const responses = await Promise.all(
          chosen.map((migrationNonce, i) => c.login(i, { pkcs7, nonce: migrationNonce })),
        );
        const won = responses.flatMap((response, i) => (response.status === 200 ? [chosen[i]] : []));
        expect(won).toHaveLength(1);
        for (const lost of responses.filter((response) => response.status !== 200)) {
          expect(refusal(lost)).toEqual([403, 'client nonce mismatch and instance meta-data incorrect']);
        }
        expect(await c.entry()).toMatchObject({ client_nonce: won[0], pending_time: documentTime });
      }
      // The nonce of before the migrations opens nothing any more.
      expect(
        refusal(await c.login(0, { pkcs7: await syntheticPkcs7({ pendingTime: '2026-01-01T00:00:00Z' }), nonce }))[0],
      ).toBe(403);
      expect(c.faults).toEqual([]);
    },
    CAMPAIGN_TIMEOUT,
  );
});

/** An access-list entry long expired, holding `nonce` for a document of SYNTHETIC's pendingTime. */
function expiredEntry(nonce: string): Uint8Array {
  const entry = {
    role: 'web',
    client_nonce: nonce,
    creation_time: '2025-01-01T00:00:00Z',
    disallow_reauthentication: false,
    pending_time: SYNTHETIC.pendingTime,
    expiration_time: '2025-01-02T00:00:00Z',
    last_updated_time: '2025-01-01T00:00:00Z',
  };
  return new TextEncoder().encode(JSON.stringify(entry));
}

describe('tidy during logins', () => {
  const instances = Array.from({ length: 8 }, (_, i) => `i-0000000000000${String(i).padStart(4, '0')}`);

  async function raceTidy(c: Cluster): Promise<EngineResponse[]> {
    for (const [i, instanceId] of instances.entries()) {
      c.cloud.addInstance({ instanceId, imageId: SYNTHETIC.imageId });
      await c.storage.put(`auth/identity-accesslist/${instanceId}`, expiredEntry(`nonce-${i}`));
    }
    const documents = await Promise.all(instances.map((instanceId) => syntheticPkcs7({ instanceId })));
    const logins = instances.map((_, i) => c.login(i, { pkcs7: documents[i], nonce: `nonce-${i}` }));
    const tidies = c.engines.flatMap((engine) => [
      engine
        .handle({ method: 'POST', path: 'tidy/identity-accesslist', body: { safety_buffer: '1s' } })
        .then(() => engine.idle()),
      engine.periodic(),
    ]);
    const [responses] = await Promise.all([Promise.all(logins), Promise.all(tidies)]);
    return responses;
  }

  /**
   * Runs the race in fresh clusters of `engines` engines; every login gets in (a re-login with the stored nonce, or a
   * first login with its own nonce once tidy removed the expired entry). With one engine, per-key locks keep every
   * entry; across engines a tidy can remove an entry another engine's login has just rewritten (the Storage port has
   * no conditional delete, docs/security.md), and then the instance's next login is a first login.
   */
  async function expectTidyRaces(engines: number): Promise<void> {
    for (let round = 0; round < scaled(3, 60); round++) {
      const c = await cluster({
        engines,
        storage: (inner, index) => new InterleavingStorage(inner, 100 * round + index),
      });
      const responses = await raceTidy(c);
      for (const response of responses) expect(response.status, JSON.stringify(response.body)).toBe(200);
      for (const [i, instanceId] of instances.entries()) {
        const entry = await c.entry(instanceId);
        if (engines === 1) expect(entry).toMatchObject({ last_updated_time: START.replace('.000', '') });
        if (entry) expect(entry.client_nonce).toBe(`nonce-${i}`);
      }
      expect(await authProblems(c.storage)).toEqual([]);
      expect(c.faults).toEqual([]);
    }
  }

  it(
    'in one engine: every login gets in, whether tidy removed its expired entry first or not, and its entry stays',
    () => expectTidyRaces(1),
    CAMPAIGN_TIMEOUT,
  );

  it(
    'across engines: no fault, every entry whole, and every entry left holds the nonce its login stored',
    () => expectTidyRaces(3),
    CAMPAIGN_TIMEOUT,
  );
});

describe('a storage fault at any step of an ec2 login', () => {
  for (const kind of FAULT_KINDS) {
    it(
      `${kind}: a 500 changes nothing, a success hands out the nonce that was stored, and the instance can log in again`,
      async () => {
        const pkcs7 = await syntheticPkcs7();
        for (const relogin of [false, true]) {
          for (let n = 1; ; n++) {
            let faulty!: ArmableStorage;
            const c = await cluster({ engines: 1, storage: (inner) => (faulty = faultyStorage(inner, kind)) });
            const nonce = relogin ? (grantOf(await c.login(0, { pkcs7 })).metadata.nonce as string) : undefined;
            const before = await c.entry();
            faulty.arm(n);
            const response = await c.login(0, nonce === undefined ? { pkcs7 } : { pkcs7, nonce });
            const failed = faulty.failed;
            faulty.arm(undefined);
            if (response.status === 200) {
              expect((await c.entry())?.client_nonce).toBe(grantOf(response).metadata.nonce ?? nonce);
            } else {
              expect(failed).toBe(true);
              expect(response.status).toBe(500);
              expect(await c.entry()).toEqual(before);
            }
            expect(await authProblems(c.storage)).toEqual([]);
            const stored = (await c.entry())?.client_nonce as string | undefined;
            expect((await c.login(0, stored === undefined ? { pkcs7 } : { pkcs7, nonce: stored })).status).toBe(200);
            if (!failed) break;
          }
        }
      },
      CAMPAIGN_TIMEOUT,
    );
  }
});
