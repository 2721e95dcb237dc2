import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import { AuthEngine } from '../../src/auth/auth-engine.js';
import type { EngineRequest, EngineResponse } from '../../src/core/framework/request.js';
import type { Storage } from '../../src/ports/storage.js';
import { withoutCompareAndPut } from '../support/faulty-storage.js';
import { FakeCloud } from '../support/fake-cloud.js';
import { allKeys, authProblems, snapshot } from './support/invariants.js';
import { CAMPAIGN_TIMEOUT } from './support/scale.js';
import { FAULT_KINDS, faultyStorage } from './support/storages.js';

/**
 * Every mutating administration operation of the auth method, run once per storage call it makes with exactly that
 * call failing, in each of the three ways (throws; hangs, then throws; takes effect, then reports failure), with and
 * without compareAndPut. Afterwards every stored document is whole, the state is the one before or the one after
 * (a tidy may have removed any part of what it set out to remove), the engine is not wedged (the same engine then
 * runs the operation again), and config/client still names a key the cloud knows.
 */

const START = '2026-03-01T12:00:00Z';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const DSA_PEM = readFileSync('fixtures/aws-certificates/dsa/us-east-1.pem', 'utf8');
const RSA_PEM = readFileSync('fixtures/aws-certificates/rsa/us-east-1.pem', 'utf8');

function accessListEntry(expiration: string): Uint8Array {
  const entry = {
    role: 'web',
    client_nonce: 'nonce',
    creation_time: '2025-01-01T00:00:00Z',
    disallow_reauthentication: false,
    pending_time: '2025-01-01T00:00:00Z',
    expiration_time: expiration,
    last_updated_time: '2025-01-01T00:00:00Z',
  };
  return new TextEncoder().encode(JSON.stringify(entry));
}

function cloudWorld(): FakeCloud {
  const cloud = new FakeCloud();
  cloud.addUserWithKey('ellen', { accessKeyId: 'AKIAOLD', secretAccessKey: SECRET });
  cloud.addPrincipal('role', 'web');
  return cloud;
}

function engineOver(storage: Storage, cloud: FakeCloud, faults: unknown[] = []): AuthEngine {
  return new AuthEngine({
    storage,
    cloud,
    env: {},
    clock: new ManualClock(START),
    mountMaxTtl: 3600,
    onInternalError: (error) => faults.push(error),
  });
}

const accepted = (response: EngineResponse) => expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);

/** The prepared state, built once; every run starts from a copy of it. */
async function preparedState(): Promise<{ entries: [string, Uint8Array][]; freshTag: string; deniedTag: string }> {
  const storage = new MemoryStorage();
  const auth = engineOver(storage, cloudWorld());
  const setup: EngineRequest[] = [
    { method: 'POST', path: 'config/client', body: { access_key: 'AKIAOLD', secret_key: SECRET } },
    { method: 'POST', path: 'config/identity', body: { iam_alias: 'unique_id' } },
    { method: 'POST', path: 'config/certificate/cert1', body: { aws_public_cert: DSA_PEM } },
    { method: 'POST', path: 'config/sts/210987654321', body: { sts_role: 'arn:aws:iam::210987654321:role/reader' } },
    { method: 'POST', path: 'config/tidy/identity-accesslist', body: { safety_buffer: '1h' } },
    {
      method: 'POST',
      path: 'role/web',
      body: { auth_type: 'ec2', bound_ami_id: 'ami-1', role_tag: 'VaultRole', token_policies: 'a,b' },
    },
  ];
  for (const request of setup) accepted(await auth.handle(request));
  const tag = async () =>
    (
      (await auth.handle({ method: 'POST', path: 'role/web/tag', body: { policies: 'a' } })).body as {
        data: { tag_value: string };
      }
    ).data.tag_value;
  const [freshTag, deniedTag, expiredTag] = [await tag(), await tag(), await tag()];
  accepted(await auth.handle({ method: 'POST', path: `roletag-denylist/${deniedTag}` }));
  accepted(await auth.handle({ method: 'POST', path: `roletag-denylist/${expiredTag}` }));
  // Expire one deny-list entry and one access-list entry well past any safety buffer; keep the others live, and
  // dated so that denying the tag again visibly refreshes its entry.
  const denied = await allKeys(storage, 'auth/roletag-denylist/');
  const entryOf = (tag: string) =>
    denied.find((key) =>
      Buffer.from(key.split('/').pop() as string, 'base64url')
        .toString()
        .startsWith(tag.slice(0, 14)),
    );
  const dated = (created: string, expires: string) =>
    new TextEncoder().encode(JSON.stringify({ creation_time: created, expiration_time: expires }));
  await storage.put(entryOf(expiredTag) as string, dated('2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z'));
  await storage.put(entryOf(deniedTag) as string, dated('2026-02-01T00:00:00Z', '2026-04-01T00:00:00Z'));
  await storage.put('auth/identity-accesslist/i-old', accessListEntry('2024-01-01T00:00:00Z'));
  await storage.put('auth/identity-accesslist/i-live', accessListEntry('2027-01-01T00:00:00Z'));
  const entries: [string, Uint8Array][] = [];
  for (const key of await allKeys(storage, '')) entries.push([key, (await storage.get(key)) as Uint8Array]);
  return { entries, freshTag, deniedTag };
}

interface Operation {
  name: string;
  run: (auth: AuthEngine) => Promise<EngineResponse | void>;
  /** A tidy removes entries one by one: any part of them may be gone after a failure. */
  removesSeveral?: boolean;
  /** Running it again does not end in the same state (a new key; a periodic tidy waits an hour): not compared. */
  repeatable?: boolean;
}

function request(name: string, value: EngineRequest): Operation {
  return { name, run: (auth) => auth.handle(value) };
}

function operations(tags: { freshTag: string; deniedTag: string }): Operation[] {
  const tidy = (list: string): Operation => ({
    name: `tidy/${list}`,
    removesSeveral: true,
    run: async (auth) => {
      const response = await auth.handle({ method: 'POST', path: `tidy/${list}`, body: { safety_buffer: '1h' } });
      await auth.idle();
      return response;
    },
  });
  return [
    request('config/client update', {
      method: 'POST',
      path: 'config/client',
      body: { sts_region: 'eu-west-1', allowed_sts_header_values: 'x-foo' },
    }),
    request('config/client delete', { method: 'DELETE', path: 'config/client' }),
    request('config/identity', {
      method: 'POST',
      path: 'config/identity',
      body: { iam_alias: 'full_arn', ec2_metadata: ['instance_id'] },
    }),
    request('certificate create', {
      method: 'POST',
      path: 'config/certificate/cert2',
      body: { aws_public_cert: RSA_PEM, type: 'identity' },
    }),
    request('certificate update', {
      method: 'POST',
      path: 'config/certificate/cert1',
      body: { aws_public_cert: RSA_PEM, type: 'identity' },
    }),
    request('certificate delete', { method: 'DELETE', path: 'config/certificate/cert1' }),
    request('sts create', {
      method: 'POST',
      path: 'config/sts/123456789012',
      body: { sts_role: 'arn:aws:iam::123456789012:role/r', external_id: 'x' },
    }),
    request('sts delete', { method: 'DELETE', path: 'config/sts/210987654321' }),
    request('tidy config write', {
      method: 'POST',
      path: 'config/tidy/roletag-denylist',
      body: { safety_buffer: '2h', disable_periodic_tidy: true },
    }),
    request('tidy config delete', { method: 'DELETE', path: 'config/tidy/identity-accesslist' }),
    request('role create', {
      method: 'POST',
      path: 'role/new',
      body: { auth_type: 'ec2', bound_ami_id: 'ami-2', token_ttl: '1h' },
    }),
    request('role create with resolved principal', {
      method: 'POST',
      path: 'role/iam',
      body: { bound_iam_principal_arn: 'arn:aws:iam::123456789012:role/web' },
    }),
    request('role update', { method: 'POST', path: 'role/WEB', body: { bound_ami_id: 'ami-3', token_max_ttl: '2h' } }),
    request('role delete', { method: 'DELETE', path: 'role/web' }),
    request('deny-list add', { method: 'POST', path: `roletag-denylist/${tags.freshTag}` }),
    request('deny-list refresh', {
      method: 'POST',
      path: `roletag-denylist/${Buffer.from(tags.deniedTag).toString('base64')}`,
    }),
    request('deny-list remove', { method: 'DELETE', path: `roletag-denylist/${tags.deniedTag}` }),
    request('access-list remove', { method: 'DELETE', path: 'identity-accesslist/i-live' }),
    tidy('identity-accesslist'),
    tidy('roletag-denylist'),
    {
      name: 'periodic tidy',
      removesSeveral: true,
      repeatable: true,
      run: (auth) => auth.periodic().catch(() => undefined),
    },
    { ...request('rotate-root', { method: 'POST', path: 'config/rotate-root' }), repeatable: true },
  ];
}

/** Roles get random ids and keys at creation: compared without them. */
function comparable(state: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(state).map(([key, text]) =>
      key.startsWith('auth/role/')
        ? [key, JSON.stringify({ ...JSON.parse(text), role_id: 'any', hmac_key: 'any' })]
        : [key, text],
    ),
  );
}

function isPartialRemoval(
  state: Record<string, string>,
  before: Record<string, string>,
  after: Record<string, string>,
): boolean {
  return (
    Object.entries(state).every(([key, text]) => before[key] === text) &&
    Object.keys(after).every((key) => state[key] === after[key])
  );
}

/** The configured access key is one the cloud knows, and the user never holds more than IAM's two keys. */
async function expectUsableCredentials(storage: Storage, cloud: FakeCloud): Promise<void> {
  const bytes = await storage.get('auth/config/client');
  if (bytes === undefined) return;
  const { access_key: configured } = JSON.parse(new TextDecoder().decode(bytes)) as { access_key: string };
  expect(cloud.accessKeysOf('ellen')).toContain(configured);
}

const variants: [string, (storage: MemoryStorage) => Storage][] = [
  ['with compareAndPut', (storage) => storage],
  ['without compareAndPut', (storage) => withoutCompareAndPut(storage)],
];

describe('a storage fault at any call of any administration operation', async () => {
  const prepared = await preparedState();
  const fresh = async () => {
    const storage = new MemoryStorage();
    for (const [key, value] of prepared.entries) await storage.put(key, value);
    return storage;
  };

  for (const [variantName, variant] of variants) {
    describe(variantName, () => {
      it.each(operations(prepared).map((operation) => ({ operation, label: operation.name })))(
        '$label',
        async ({ operation }) => {
          const referenceStorage = await fresh();
          const before = comparable(await snapshot(referenceStorage, 'auth/'));
          const result = await operation.run(engineOver(variant(referenceStorage), cloudWorld()));
          if (result) accepted(result);
          const after = comparable(await snapshot(referenceStorage, 'auth/'));
          expect(after).not.toEqual(before);

          for (const kind of FAULT_KINDS) {
            for (let n = 1; ; n++) {
              const inner = await fresh();
              const cloud = cloudWorld();
              const faulty = faultyStorage(variant(inner), kind);
              const faults: unknown[] = [];
              const auth = engineOver(faulty, cloud, faults);
              faulty.arm(n);
              const response = await operation.run(auth);
              const failed = faulty.failed;
              faulty.arm(undefined);
              if (response && response.status >= 300) {
                expect(failed).toBe(true);
                expect(response).toEqual({ status: 500, body: { errors: [expect.any(String)] } });
              }
              expect(await authProblems(inner)).toEqual([]);
              await expectUsableCredentials(inner, cloud);
              const state = comparable(await snapshot(inner, 'auth/'));
              if (operation.removesSeveral) expect(isPartialRemoval(state, before, after)).toBe(true);
              else expect([before, after]).toContainEqual(state);
              // The same engine (its locks, its background jobs) runs the operation again, and finishes it.
              const again = await operation.run(auth);
              if (again) accepted(again);
              expect(await authProblems(inner)).toEqual([]);
              await expectUsableCredentials(inner, cloud);
              if (!operation.repeatable) expect(comparable(await snapshot(inner, 'auth/'))).toEqual(after);
              if (!failed) break;
            }
          }
        },
        CAMPAIGN_TIMEOUT,
      );
    });
  }
});
