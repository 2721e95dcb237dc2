import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import type { EngineRequest } from '../../src/core/framework/request.js';
import { KvEngine } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { withoutCompareAndPut } from '../support/faulty-storage.js';
import { kvProblems } from './support/invariants.js';
import { KvLedger } from './support/kv-ledger.js';
import {
  acceptable,
  KV_OPERATIONS,
  MERGE,
  runKvStep,
  type KvOperationName,
  type KvStep,
} from './support/kv-operations.js';
import { CAMPAIGN_TIMEOUT, propertyRuns } from './support/scale.js';
import { FAULT_KINDS, faultyStorage, InterleavingStorage, type FaultKind } from './support/storages.js';

/**
 * Fault injection beyond tests/kv/faults.test.ts (which throws at every call of every operation): a call that hangs
 * while another engine changes the same key and then throws, and a call that takes effect but reports failure (a
 * lost acknowledgement); then random mixed sequences, racing over two engines, with one fault of any kind anywhere.
 */

const START = '2026-03-01T12:00:00Z';
const KEYS = ['foo', 'bar'];

/** Everything a client can observe of the config and of each key's listed versions, read by a fresh engine. */
async function visibleState(storage: Storage): Promise<unknown> {
  const kv = new KvEngine({ storage, clock: new ManualClock(START) });
  const keys = await Promise.all(
    KEYS.map(async (key) => {
      const metadata = await kv.handle({ method: 'GET', path: `metadata/${key}` });
      const listed =
        metadata.status === 200 ? Object.keys((metadata.body as { data: { versions: object } }).data.versions) : [];
      const reads = await Promise.all(
        listed.map((version) => kv.handle({ method: 'GET', path: `data/${key}`, query: { version } })),
      );
      return [key, { metadata, reads }] as const;
    }),
  );
  return { config: await kv.handle({ method: 'GET', path: 'config' }), ...Object.fromEntries(keys) };
}

/** foo: three versions (max 3, the first deleted), bar: one; every write through the ledger. */
async function prepare(kv: KvEngine, ledger: KvLedger): Promise<void> {
  await kv.handle({ method: 'POST', path: 'metadata/foo', body: { max_versions: 3 } });
  for (const key of ['foo', 'foo', 'foo', 'bar']) await runKvStep(kv, { operation: 'write', key, pick: 0 }, ledger);
  await kv.handle({ method: 'POST', path: 'delete/foo', body: { versions: [1] } });
}

/** Any later change of a key retries the removals a failure left, so afterwards no secret data may remain. */
async function tidyUp(storage: Storage): Promise<void> {
  const kv = new KvEngine({ storage, clock: new ManualClock(START) });
  for (const key of KEYS) await kv.handle({ method: 'PATCH', path: `metadata/${key}`, headers: MERGE, body: {} });
}

const variants: [string, (storage: MemoryStorage) => Storage][] = [
  ['with compareAndPut', (storage) => storage],
  ['without compareAndPut', (storage) => withoutCompareAndPut(storage)],
];

async function world(variant: (storage: MemoryStorage) => Storage, kind: FaultKind) {
  const inner = new MemoryStorage();
  const faulty = faultyStorage(variant(inner), kind);
  const ledger = new KvLedger();
  const kv = new KvEngine({ storage: faulty, clock: new ManualClock(START) });
  await prepare(kv, ledger);
  return { inner, faulty, ledger, kv };
}

describe('a lost acknowledgement at any call of any operation', () => {
  for (const [variantName, variant] of variants) {
    it.each(KV_OPERATIONS.map((operation) => ({ operation })))(`${variantName}: $operation`, async ({ operation }) => {
      const step: KvStep = { operation, key: 'foo', pick: 1 };
      const reference = await world(variant, 'late');
      const before = await visibleState(reference.inner);
      expect(acceptable(await runKvStep(reference.kv, step, reference.ledger), false)).toBe(true);
      const allowed = [before, await visibleState(reference.inner)];
      if (operation === 'metadataDelete') {
        const halfway = await world(variant, 'late');
        await halfway.kv.handle({ method: 'PUT', path: 'destroy/foo', body: { versions: [1, 2, 3] } });
        allowed.push(await visibleState(halfway.inner));
      }
      for (let n = 1; ; n++) {
        const { inner, faulty, ledger, kv } = await world(variant, 'late');
        faulty.arm(n);
        const response = await runKvStep(
          kv,
          step,
          ledger,
          new KvEngine({ storage: inner, clock: new ManualClock(START) }),
        );
        expect(acceptable(response, faulty.failed)).toBe(true);
        expect(await kvProblems(inner)).toEqual([]);
        expect(await ledger.problems(inner)).toEqual([]);
        expect(allowed).toContainEqual(await visibleState(inner));
        await tidyUp(inner);
        expect(await kvProblems(inner, { tidy: true })).toEqual([]);
        if (!faulty.failed) break;
      }
    });
  }
});

describe('a call that hangs while another engine writes the same key, then throws', () => {
  it.each(KV_OPERATIONS.map((operation) => ({ operation })))('$operation', async ({ operation }) => {
    for (let n = 1; ; n++) {
      const { inner, faulty, ledger, kv } = await world((storage) => storage, 'hang');
      const competitor = new KvEngine({ storage: inner, clock: new ManualClock(START) });
      faulty.arm(n);
      const [response, rival] = await Promise.all([
        runKvStep(kv, { operation, key: 'foo', pick: 2 }, ledger, competitor),
        new Promise((resolve) => setTimeout(resolve, 1)).then(() =>
          runKvStep(competitor, { operation: 'write', key: 'foo', pick: 3 }, ledger),
        ),
      ]);
      expect(acceptable(response, faulty.failed)).toBe(true);
      expect(rival.status).toBe(200);
      expect(await kvProblems(inner)).toEqual([]);
      expect(await ledger.problems(inner)).toEqual([]);
      await tidyUp(inner);
      expect(await kvProblems(inner, { tidy: true })).toEqual([]);
      if (!faulty.failed) break;
    }
  });
});

const write = (data: Record<string, unknown>): EngineRequest => ({ method: 'POST', path: 'data/k', body: { data } });
const patch: EngineRequest = { method: 'PATCH', path: 'data/k', headers: MERGE, body: { data: { mine: true } } };

describe('the blobs of attempts that lost a race', () => {
  it.each([
    {
      name: 'one lost race, its removal failing',
      ours: write({ mine: true }),
      rivals: [write({ rival: 1 })],
      failingDeletes: 1,
    },
    {
      name: 'two lost races, every removal failing twice',
      ours: write({ mine: true }),
      rivals: [write({ rival: 1 }), write({ rival: 2 })],
      failingDeletes: 3,
    },
    {
      name: 'a patch that finds the head deleted after its lost race',
      ours: patch,
      rivals: [{ method: 'DELETE', path: 'data/k' }],
      failingDeletes: 1,
    },
  ] satisfies { name: string; ours: EngineRequest; rivals: EngineRequest[]; failingDeletes: number }[])(
    'are never left behind when their removal fails: $name',
    async ({ ours, rivals, failingDeletes }) => {
      const inner = new MemoryStorage();
      const rival = new KvEngine({ storage: inner });
      await rival.handle(write({ first: true }));
      const pending = [...rivals];
      let deleteFailures = failingDeletes;
      // A rival commits between our read of the record and each of our commits; our blob removals fail meanwhile.
      const storage: Storage = {
        get: (key) => inner.get(key),
        put: (key, value) => inner.put(key, value),
        list: (prefix) => inner.list(prefix),
        delete: async (key) => {
          if (key.includes('/versions/') && deleteFailures-- > 0) throw new Error('injected delete failure');
          return inner.delete(key);
        },
        compareAndPut: async (key, expected, value) => {
          const next = pending.shift();
          if (next) await rival.handle(next);
          return inner.compareAndPut(key, expected, value);
        },
      };
      const response = await new KvEngine({ storage }).handle(ours);
      expect([200, 404]).toContain(response.status);
      expect(pending).toEqual([]);
      expect(await kvProblems(inner)).toEqual([]);
      await rival.handle({ method: 'PATCH', path: 'metadata/k', headers: MERGE, body: {} });
      expect(await kvProblems(inner, { tidy: true })).toEqual([]);
    },
  );
});

const stepArbitrary = fc.record({
  operation: fc.constantFrom<KvOperationName>(...KV_OPERATIONS),
  key: fc.constantFrom('a', 'b', 'a/c'),
  pick: fc.nat(20),
});

describe('random mixed sequences over two engines, with one fault of any kind at any call', () => {
  it(
    'keep every invariant and every acknowledged write',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(stepArbitrary, { minLength: 4, maxLength: 30 }),
          fc.constantFrom(...FAULT_KINDS),
          fc.integer({ min: 1, max: 120 }),
          fc.integer({ min: 1, max: 3 }),
          fc.nat(),
          async (steps, kind, n, lanes, seed) => {
            const inner = new MemoryStorage();
            const faulty = faultyStorage(new InterleavingStorage(inner, seed), kind);
            const engines = [
              new KvEngine({ storage: faulty }),
              new KvEngine({ storage: new InterleavingStorage(inner, seed + 1) }),
            ];
            const ledger = new KvLedger();
            faulty.arm(n);
            const responses: { request: KvStep; status: number }[] = [];
            await Promise.all(
              Array.from({ length: lanes }, async (_, lane) => {
                for (let index = lane; index < steps.length; index += lanes) {
                  const step = steps[index] as KvStep;
                  const response = await runKvStep(engines[index % 2] as KvEngine, step, ledger);
                  responses.push({ request: step, status: response.status });
                  expect(acceptable(response, true)).toBe(true);
                }
              }),
            );
            expect(responses.filter((response) => response.status === 500).length).toBeLessThanOrEqual(
              faulty.failed ? 1 : 0,
            );
            const explained = (data: unknown) => ledger.racedMetadataDelete(data);
            expect(await kvProblems(inner, { explained })).toEqual([]);
            expect(await ledger.problems(inner)).toEqual([]);
            const clean = new KvEngine({ storage: inner });
            for (const key of ['a', 'b', 'a/c'])
              await clean.handle({ method: 'PATCH', path: `metadata/${key}`, headers: MERGE, body: {} });
            expect(await kvProblems(inner, { tidy: true, explained })).toEqual([]);
          },
        ),
        propertyRuns(40, 4000),
      );
    },
    CAMPAIGN_TIMEOUT,
  );
});
