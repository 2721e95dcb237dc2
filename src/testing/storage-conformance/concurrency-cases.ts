import type { Storage } from '../../ports/storage.js';
import { check, checkBytes, checkEqual, encode, type ConformanceCase } from './checks.js';

const CONTENDERS = 40;
const WORKERS = 8;
const INCREMENTS = 25;

const decode = (value: Uint8Array | undefined) => (value === undefined ? undefined : new TextDecoder().decode(value));

/** Alternates contenders between the storage and its sibling handle, when there is one. */
const handleFor = (storage: Storage, sibling: Storage | undefined, index: number) =>
  sibling && index % 2 ? sibling : storage;

/** A read-modify-write counter through compareAndPut, retried on conflict: the lost-update test. */
async function increment(storage: Storage, key: string): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const current = await storage.get(key);
    const next = Number(decode(current) ?? '0') + 1;
    if (await storage.compareAndPut!(key, current, encode(String(next)))) return attempt;
  }
}

/**
 * The same through commit: the counter is conditioned on the value read, and each step also writes a key of its own
 * and removes the previous step's, so a lost update or half a commit shows in the keys left.
 */
async function incrementByCommit(storage: Storage, worker: number, step: number): Promise<void> {
  for (;;) {
    const current = await storage.get('ledger/counter');
    const next = encode(String(Number(decode(current) ?? '0') + 1));
    const operations = [
      { type: 'put' as const, key: 'ledger/counter', value: next, expected: current ?? null },
      { type: 'put' as const, key: `ledger/steps/${worker}/${step}`, value: next, expected: null },
      ...(step > 0 ? [{ type: 'delete' as const, key: `ledger/steps/${worker}/${step - 1}` }] : []),
    ];
    if (await storage.commit!(operations)) return;
  }
}

export const concurrencyCases: ConformanceCase[] = [
  {
    name: 'concurrent compareAndPut from the same expected value: exactly one wins',
    requires: ['compareAndPut'],
    async run(storage, sibling) {
      for (const start of [undefined, encode('base')]) {
        await storage.delete('race');
        if (start) await storage.put('race', start);
        const results = await Promise.all(
          Array.from({ length: CONTENDERS }, (_, index) =>
            handleFor(storage, sibling, index).compareAndPut!('race', start, encode(`winner-${index}`)),
          ),
        );
        const winners = results.flatMap((won, index) => (won ? [index] : []));
        checkEqual(winners.length, 1, `winners from ${start ? 'a present value' : 'absence'}`);
        checkBytes(await storage.get('race'), encode(`winner-${winners[0]}`), "the stored value is the winner's");
      }
    },
  },
  {
    name: 'concurrent read-modify-write through compareAndPut loses no increment',
    requires: ['compareAndPut'],
    async run(storage, sibling) {
      await Promise.all(
        Array.from({ length: WORKERS }, async (_, worker) => {
          for (let step = 0; step < INCREMENTS; step++) await increment(handleFor(storage, sibling, worker), 'counter');
        }),
      );
      checkEqual(decode(await storage.get('counter')), String(WORKERS * INCREMENTS), 'the counter');
    },
  },
  {
    name: 'concurrent read-modify-write through conditional commits loses no increment and applies no half commit',
    requires: ['commit'],
    async run(storage, sibling) {
      await Promise.all(
        Array.from({ length: WORKERS }, async (_, worker) => {
          for (let step = 0; step < INCREMENTS; step++)
            await incrementByCommit(handleFor(storage, sibling, worker), worker, step);
        }),
      );
      checkEqual(decode(await storage.get('ledger/counter')), String(WORKERS * INCREMENTS), 'the counter');
      for (let worker = 0; worker < WORKERS; worker++) {
        checkEqual(
          await storage.list(`ledger/steps/${worker}/`),
          [String(INCREMENTS - 1)],
          `worker ${worker}'s step keys`,
        );
      }
    },
  },
  {
    name: 'concurrent conditional commits and deletes: exactly one wins each race',
    requires: ['commit', 'compareAndDelete'],
    async run(storage, sibling) {
      const claims = await Promise.all(
        Array.from({ length: CONTENDERS }, (_, index) =>
          handleFor(storage, sibling, index).commit!([
            { type: 'put', key: 'claim/owner', value: encode(String(index)), expected: null },
            { type: 'put', key: `claim/by/${index}`, value: encode('mine'), expected: null },
          ]),
        ),
      );
      const winners = claims.flatMap((won, index) => (won ? [index] : []));
      checkEqual(winners.length, 1, 'commits that claimed the absent key');
      checkEqual(await storage.list('claim/by/'), [String(winners[0])], "only the winner's second put applied");
      const owner = (await storage.get('claim/owner'))!;
      const deletes = await Promise.all(
        Array.from({ length: CONTENDERS }, (_, index) =>
          handleFor(storage, sibling, index).compareAndDelete!('claim/owner', owner),
        ),
      );
      checkEqual(deletes.filter(Boolean).length, 1, 'compareAndDelete calls that deleted');
      check((await storage.get('claim/owner')) === undefined, 'the claimed key is gone');
    },
  },
];
