import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import type { EngineRequest } from '../../src/core/framework/request.js';
import { KvEngine } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { kvProblems } from '../campaign/support/invariants.js';
import { FaultyStorage, withoutCommit, withoutCompareAndPut } from '../support/faulty-storage.js';
import { JSON_PATCH, MERGE } from './helpers.js';

/**
 * Fault injection: every mutating operation is run once per storage call it makes, with exactly that call failing.
 * Afterwards every key must be readable and consistent, and the visible state must be the state before the operation
 * (when it answered 500) or after it (when it succeeded, possibly with a cleanup warning).
 */

const START = '2026-03-01T12:00:00Z';
const KEYS = ['foo', 'bar'];

type Step = EngineRequest;
const W = (path: string, data: unknown, cas?: number): Step => ({
  method: 'POST',
  path: `data/${path}`,
  body: { data, options: cas === undefined ? {} : { cas } },
});
const MD = (path: string, body: unknown): Step => ({ method: 'POST', path: `metadata/${path}`, body });

interface Scenario {
  name: string;
  prepare: Step[];
  request: Step;
  /** A state that a failed run may also leave (metadata DELETE: every version destroyed, retry finishes). */
  alsoAllowed?: Step[];
  /** The operation removes version data after its commit: a failure there is a warning, retried by the next change. */
  removesData?: boolean;
}

const twoVersions = [W('foo', { v: 1 }), W('foo', { v: 2 }), W('bar', { other: true })];
/** Twelve versions: all but the newest are no longer inline in the key's record but in their entry documents. */
const deep = [
  MD('foo', { max_versions: 20 }),
  ...Array.from({ length: 12 }, (_, i) => W('foo', { v: i + 1 })),
  W('bar', { other: true }),
];

const scenarios: Scenario[] = [
  {
    name: 'config write',
    prepare: [],
    request: { method: 'POST', path: 'config', body: { max_versions: 3, delete_version_after: '1h' } },
  },
  { name: 'write of a new key', prepare: [W('bar', { other: true })], request: W('foo', { v: 1 }, 0) },
  {
    name: 'write that prunes one version',
    prepare: [MD('foo', { max_versions: 2 }), ...twoVersions],
    request: W('foo', { v: 3 }),
    removesData: true,
  },
  {
    name: 'write that prunes many versions after max_versions was lowered',
    prepare: [...twoVersions, W('foo', { v: 3 }), W('foo', { v: 4 }), MD('foo', { max_versions: 2 })],
    request: W('foo', { v: 5 }),
    removesData: true,
  },
  {
    name: 'write after an earlier prune (garbage of the previous write is retried)',
    prepare: [MD('foo', { max_versions: 1 }), ...twoVersions],
    request: W('foo', { v: 3 }),
    removesData: true,
  },
  {
    name: 'merge patch',
    prepare: twoVersions,
    request: { method: 'PATCH', path: 'data/foo', headers: MERGE, body: { data: { w: 1, v: null } } },
  },
  {
    name: 'JSON patch',
    prepare: twoVersions,
    request: {
      method: 'PATCH',
      path: 'data/foo',
      headers: JSON_PATCH,
      body: { data: [{ op: 'add', path: '/w', value: 1 }] },
    },
  },
  { name: 'DELETE data', prepare: twoVersions, request: { method: 'DELETE', path: 'data/foo' } },
  {
    name: 'delete versions',
    prepare: twoVersions,
    request: { method: 'POST', path: 'delete/foo', body: { versions: [1, 2] } },
  },
  {
    name: 'undelete versions',
    prepare: [
      { method: 'POST', path: 'config', body: { delete_version_after: '1h' } },
      ...twoVersions,
      { method: 'POST', path: 'delete/foo', body: { versions: [1] } },
    ],
    request: { method: 'POST', path: 'undelete/foo', body: { versions: [1] } },
  },
  {
    name: 'destroy versions',
    prepare: twoVersions,
    request: { method: 'PUT', path: 'destroy/foo', body: { versions: [1, 2] } },
    removesData: true,
  },
  {
    name: 'metadata write of a new key',
    prepare: [],
    request: MD('foo', { max_versions: 4, custom_metadata: { a: 'b' } }),
  },
  { name: 'metadata write of an existing key', prepare: twoVersions, request: MD('foo', { cas_required: true }) },
  {
    name: 'metadata patch',
    prepare: [MD('foo', { custom_metadata: { a: 'b' } }), ...twoVersions],
    request: {
      method: 'PATCH',
      path: 'metadata/foo',
      headers: MERGE,
      body: { custom_metadata: { a: null, c: 'd' }, max_versions: 7 },
    },
  },
  {
    name: 'metadata delete of a key with versions',
    prepare: [...twoVersions, { method: 'PUT', path: 'destroy/foo', body: { versions: [1] } }, W('foo', { v: 3 })],
    request: { method: 'DELETE', path: 'metadata/foo' },
    alsoAllowed: [{ method: 'PUT', path: 'destroy/foo', body: { versions: [2, 3] } }],
  },
  {
    name: 'write that spills versions a delete brought inline',
    prepare: [...deep, { method: 'POST', path: 'delete/foo', body: { versions: [1, 2] } }],
    request: W('foo', { v: 13 }),
  },
  {
    name: 'write that prunes spilled versions',
    prepare: [...deep, MD('foo', { max_versions: 5 })],
    request: W('foo', { v: 13 }),
    removesData: true,
  },
  {
    name: 'read-modify-write of a spilled version: delete',
    prepare: deep,
    request: { method: 'POST', path: 'delete/foo', body: { versions: [1, 11] } },
  },
  {
    name: 'destroy of spilled versions',
    prepare: deep,
    request: { method: 'PUT', path: 'destroy/foo', body: { versions: [1, 2] } },
    removesData: true,
  },
  {
    name: 'metadata delete of a key with spilled versions',
    prepare: [...deep, { method: 'POST', path: 'delete/foo', body: { versions: [1] } }],
    request: { method: 'DELETE', path: 'metadata/foo' },
    alsoAllowed: [
      { method: 'PUT', path: 'destroy/foo', body: { versions: Array.from({ length: 12 }, (_, i) => i + 1) } },
    ],
  },
  {
    name: 'metadata delete of a metadata-only key',
    prepare: [MD('foo', { max_versions: 3 })],
    request: { method: 'DELETE', path: 'metadata/foo' },
  },
];

/** The third member: whether removals can fail after a commit (they are part of it with atomic commits). */
const variants: [string, (storage: MemoryStorage) => Storage, boolean][] = [
  ['with atomic commits', (storage) => storage, false],
  ['with compareAndPut only', (storage) => withoutCommit(storage), true],
  ['without compareAndPut', (storage) => withoutCompareAndPut(storage), true],
];

async function run(kv: KvEngine, steps: Step[]): Promise<void> {
  for (const step of steps) expect((await kv.handle(step)).status).toBeLessThan(300);
}

/** Everything a client can observe about the keys, read by a fresh engine straight from the inner storage. */
async function visibleState(storage: Storage): Promise<unknown> {
  const kv = new KvEngine({ storage, clock: new ManualClock(START) });
  const state: Record<string, unknown> = {
    config: await kv.handle({ method: 'GET', path: 'config' }),
    list: await kv.handle({ method: 'LIST', path: 'metadata/' }),
  };
  for (const key of KEYS) {
    const metadata = await kv.handle({ method: 'GET', path: `metadata/${key}` });
    const current =
      metadata.status === 200 ? (metadata.body as { data: { current_version: number } }).data.current_version : 0;
    const reads = [];
    for (let version = 1; version <= current; version++)
      reads.push(await kv.handle({ method: 'GET', path: `data/${key}`, query: { version: String(version) } }));
    state[key] = { metadata, reads };
  }
  return state;
}

/**
 * The campaign's invariants read straight from storage: every kept version has its entry, every referenced blob
 * exists, every stored blob is referenced or listed as garbage (and, once `tidy`, only referenced: the next change of
 * a key finishes the removals a failure left).
 */
async function expectConsistent(storage: Storage, tidy = false): Promise<void> {
  expect(await kvProblems(storage, { tidy })).toEqual([]);
}

async function prepared(scenario: Scenario, variant: (storage: MemoryStorage) => Storage, extra: Step[] = []) {
  const inner = new MemoryStorage();
  const faulty = new FaultyStorage(variant(inner));
  const kv = new KvEngine({ storage: faulty, clock: new ManualClock(START) });
  await run(kv, [...scenario.prepare, ...extra]);
  return { inner, faulty, kv };
}

describe('a storage failure at any step leaves every key readable and consistent', () => {
  for (const [variantName, variant, cleanupCanFail] of variants) {
    describe(variantName, () => {
      it.each(scenarios.map((scenario) => ({ ...scenario, label: scenario.name })))('$label', async (scenario) => {
        const reference = await prepared(scenario, variant);
        const before = await visibleState(reference.inner);
        const success = await reference.kv.handle(scenario.request);
        expect(success.status).toBeLessThan(300);
        const after = await visibleState(reference.inner);
        const allowedOnFailure = [before];
        if (scenario.alsoAllowed)
          allowedOnFailure.push(await visibleState((await prepared(scenario, variant, scenario.alsoAllowed)).inner));

        let failures = 0;
        let warned = false;
        for (let n = 1; ; n++) {
          const { inner, faulty, kv } = await prepared(scenario, variant);
          faulty.arm(n);
          const response = await kv.handle(scenario.request);
          if (!faulty.failed) {
            expect(response).toEqual(success);
            break;
          }
          failures += 1;
          await expectConsistent(inner);
          if (response.status === 500) {
            expect(response.body).toEqual({ errors: [expect.any(String)] });
            expect(allowedOnFailure).toContainEqual(await visibleState(inner));
            faulty.arm(undefined);
            expect((await kv.handle(scenario.request)).status).toBeLessThan(300);
            await expectConsistent(inner);
          } else {
            expect(response.status).toBeLessThan(300);
            warned ||= response.body?.warnings !== undefined;
          }
          expect(await visibleState(inner)).toEqual(after);
          // Any later change of the key, even a metadata PATCH that changes nothing, finishes the removals.
          await new KvEngine({ storage: inner }).handle({
            method: 'PATCH',
            path: 'metadata/foo',
            headers: MERGE,
            body: {},
          });
          await expectConsistent(inner, true);
        }
        expect(failures).toBeGreaterThan(0);
        expect(warned).toBe(cleanupCanFail && scenario.removesData === true);
      });
    });
  }
});
