import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KvEngine } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { withoutCompareAndPut } from '../support/faulty-storage.js';
import { testStorage } from '../support/test-storage.js';
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
import { CAMPAIGN_TIMEOUT, propertyRuns, scaled } from './support/scale.js';
import { InterleavingStorage } from './support/storages.js';

/**
 * Races on the same keys: writers, cas writers, merge and JSON patchers, deleters, undeleters, destroyers, metadata
 * writers, patchers and deleters, and readers, spread over several engines (processes) sharing one storage with
 * compareAndPut, or over one engine without it. No answer may be a 500; afterwards every invariant holds and every
 * acknowledged write is where it was acknowledged.
 */

const READ_PATHS = (key: string) => [`data/${key}`, `subkeys/${key}`, `metadata/${key}`];

async function race(options: {
  engines: KvEngine[];
  steps: KvStep[];
  ledger: KvLedger;
  lanes: number;
}): Promise<number[]> {
  const statuses: number[] = [];
  const { engines, steps, ledger, lanes } = options;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let index = lane; index < steps.length; index += lanes) {
        const step = steps[index] as KvStep;
        const engine = engines[index % engines.length] as KvEngine;
        const response = await runKvStep(engine, step, ledger);
        statuses.push(response.status);
        expect(acceptable(response, false), `${step.operation} ${step.key}: ${JSON.stringify(response)}`).toBe(true);
        // A reader racing the changes never sees a 500 (a blob pruned under it is read again).
        for (const path of READ_PATHS(step.key))
          expect((await engine.handle({ method: 'GET', path })).status).not.toBe(500);
      }
    }),
  );
  return statuses;
}

const stepArbitrary = (keys: string[]) =>
  fc.record({
    operation: fc.constantFrom<KvOperationName>(...KV_OPERATIONS),
    key: fc.constantFrom(...keys),
    pick: fc.nat(20),
  });

describe('racing operations on the same keys', () => {
  /** Random steps, raced in lanes over the engines `engines` builds on one storage; then the checks. */
  const raceProperty = (engines: (storage: Storage, seed: number) => KvEngine[]) =>
    fc.asyncProperty(
      fc.array(stepArbitrary(['hot', 'hot', 'warm']), { minLength: 10, maxLength: 60 }),
      fc.integer({ min: 2, max: 8 }),
      fc.nat(),
      async (steps, lanes, seed) => {
        const storage = testStorage();
        const ledger = new KvLedger();
        await race({ engines: engines(storage, seed), steps, ledger, lanes });
        expect(await kvProblems(storage, { explained: (data) => ledger.racedMetadataDelete(data) })).toEqual([]);
        expect(await ledger.problems(storage)).toEqual([]);
      },
    );

  it(
    'several engines over one storage with compareAndPut',
    async () => {
      const engines = (storage: Storage, seed: number) =>
        [0, 1, 2].map((index) => new KvEngine({ storage: new InterleavingStorage(storage, seed + index) }));
      await fc.assert(raceProperty(engines), propertyRuns(25, 2000));
    },
    CAMPAIGN_TIMEOUT,
  );

  it(
    'one engine without compareAndPut (its per-key lock serialises)',
    async () => {
      const engines = (storage: Storage, seed: number) => [
        new KvEngine({ storage: new InterleavingStorage(withoutCompareAndPut(storage), seed) }),
      ];
      await fc.assert(raceProperty(engines), propertyRuns(25, 2000));
    },
    CAMPAIGN_TIMEOUT,
  );

  it(
    'cas writers racing patchers and deleters: each cas success is its own version, none is lost',
    async () => {
      const storage = testStorage();
      const engines = [0, 1, 2, 3].map(
        (index) => new KvEngine({ storage: new InterleavingStorage(storage, 97 + index) }),
      );
      await engines[0]?.handle({ method: 'POST', path: 'metadata/k', body: { max_versions: 1000 } });
      const ledger = new KvLedger();
      const rounds = scaled(12, 300);
      const casWins: number[] = [];
      const others: KvOperationName[] = [
        'mergePatch',
        'jsonPatch',
        'deleteLatest',
        'undelete',
        'destroy',
        'write',
        'metadataPatch',
      ];
      await Promise.all([
        ...Array.from({ length: 6 }, async (_, writer) => {
          for (let round = 0; round < rounds; round++) {
            const response = await runKvStep(
              engines[writer % 4] as KvEngine,
              { operation: 'casWrite', key: 'k', pick: round },
              ledger,
            );
            expect([200, 400]).toContain(response.status);
            if (response.status === 200) casWins.push((response.body as { data: { version: number } }).data.version);
          }
        }),
        ...others.map(async (operation, index) => {
          for (let round = 0; round < rounds; round++) {
            const response = await runKvStep(
              engines[index % 4] as KvEngine,
              { operation, key: 'k', pick: round + index },
              ledger,
            );
            expect(acceptable(response, false)).toBe(true);
          }
        }),
      ]);
      expect(new Set(casWins).size).toBe(casWins.length);
      expect(casWins.length).toBeGreaterThan(0);
      expect(await kvProblems(storage)).toEqual([]);
      expect(await ledger.problems(storage)).toEqual([]);
      const metadata = await engines[0]?.handle({ method: 'GET', path: 'metadata/k' });
      const acknowledged = ledger.acknowledgedCount('k');
      // No metadata delete ran: every acknowledged write or patch made exactly one version.
      expect((metadata?.body as { data: { current_version: number } }).data.current_version).toBe(acknowledged);
    },
    CAMPAIGN_TIMEOUT,
  );

  it("with atomic commits, a metadata delete racing writers on another engine leaves no write's data behind", async () => {
    const storage = testStorage();
    const engines = [0, 1].map((index) => new KvEngine({ storage: new InterleavingStorage(storage, 5 + index, true) }));
    const ledger = new KvLedger();
    for (let round = 0; round < scaled(10, 300); round++) {
      await Promise.all([
        ...Array.from({ length: 4 }, (_, i) =>
          runKvStep(engines[1] as KvEngine, { operation: i % 2 ? 'write' : 'mergePatch', key: 'k', pick: i }, ledger),
        ),
        runKvStep(engines[0] as KvEngine, { operation: 'metadataDelete', key: 'k', pick: 0 }, ledger).then((response) =>
          expect(response.status).toBe(204),
        ),
      ]);
      expect(await kvProblems(storage, { tidy: true })).toEqual([]);
      expect(await ledger.problems(storage)).toEqual([]);
    }
  });

  it('a metadata delete racing writers on another engine leaves every key consistent', async () => {
    const storage = testStorage();
    const engines = [0, 1].map((index) => new KvEngine({ storage: new InterleavingStorage(storage, 5 + index) }));
    const ledger = new KvLedger();
    const explained = (data: unknown) => ledger.racedMetadataDelete(data);
    for (let round = 0; round < scaled(10, 300); round++) {
      await Promise.all([
        ...Array.from({ length: 4 }, (_, i) =>
          runKvStep(engines[1] as KvEngine, { operation: i % 2 ? 'write' : 'mergePatch', key: 'k', pick: i }, ledger),
        ),
        runKvStep(engines[0] as KvEngine, { operation: 'metadataDelete', key: 'k', pick: 0 }, ledger).then((response) =>
          expect(response.status).toBe(204),
        ),
      ]);
      expect(await kvProblems(storage, { explained })).toEqual([]);
    }
    await engines[0]?.handle({ method: 'PATCH', path: 'metadata/k', headers: MERGE, body: {} });
    expect(await kvProblems(storage, { tidy: true, explained })).toEqual([]);
  });
});
