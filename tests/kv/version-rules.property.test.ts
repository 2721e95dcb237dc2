import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Storage } from '../../src/ports/storage.js';
import { testStorage } from '../support/test-storage.js';
import { dataOf, setup } from './helpers.js';

/**
 * Model-based check of the version rules: random sequences of writes, patches, deletes, undeletes, destroys and
 * max_versions changes (key and engine), against a model written from the rules of decision 2.
 */

type Op =
  | { kind: 'write' }
  | { kind: 'patch' }
  | { kind: 'deleteLatest' }
  | { kind: 'delete' | 'undelete' | 'destroy'; versions: number[] }
  | { kind: 'keyMax' | 'engineMax'; max: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ kind: 'write' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'patch' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'deleteLatest' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('delete' as const, 'undelete' as const, 'destroy' as const),
      versions: fc.array(fc.integer({ min: 1, max: 16 }), { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom('keyMax' as const, 'engineMax' as const),
      max: fc.integer({ min: 0, max: 4 }),
    }),
  },
);

interface ModelVersion {
  data: Record<string, number>;
  deleted: boolean;
  destroyed: boolean;
}

class Model {
  current = 0;
  oldest = 0;
  keyMax = 0;
  engineMax = 0;
  versions = new Map<number, ModelVersion>();
  counter = 0;

  get max(): number {
    return this.keyMax || this.engineMax || 10;
  }

  add(data: Record<string, number>): void {
    this.current += 1;
    this.versions.set(this.current, { data, deleted: false, destroyed: false });
    if (this.current - this.oldest >= this.max) {
      const cut = this.current - this.max;
      for (const version of [...this.versions.keys()]) if (version <= cut) this.versions.delete(version);
      this.oldest = cut + 1;
    }
  }
}

async function blobCount(storage: Storage): Promise<number> {
  let count = 0;
  for (const folder of await storage.list('kv/versions/'))
    count += (await storage.list(`kv/versions/${folder}`)).length;
  return count;
}

describe('version and pruning invariants (property)', () => {
  it('the engine agrees with the model after every step', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 4 }),
        fc.array(op, { maxLength: 25 }),
        async (engineMax, keyMax, ops) => {
          const storage = testStorage();
          const env = setup({ storage });
          const model = new Model();
          const steps: Op[] = [{ kind: 'engineMax', max: engineMax }, { kind: 'keyMax', max: keyMax }, ...ops];
          for (const step of steps) {
            const head = model.versions.get(model.current);
            switch (step.kind) {
              case 'write': {
                const data = { n: ++model.counter };
                expect(dataOf(await env.W('k', data)).version).toBe(model.current + 1);
                model.add(data);
                break;
              }
              case 'patch': {
                const response = await env.PATCH('k', { data: { p: ++model.counter } });
                if (head && !head.deleted && !head.destroyed) {
                  expect(response.status).toBe(200);
                  model.add({ ...head.data, p: model.counter });
                } else {
                  expect(response.status).toBe(404);
                }
                break;
              }
              case 'deleteLatest':
                expect((await env.DEL('k')).status).toBe(204);
                if (head && !head.destroyed) head.deleted = true;
                break;
              case 'delete':
              case 'undelete':
              case 'destroy':
                expect((await env.versions(step.kind, 'k', step.versions)).status).toBe(204);
                for (const number of step.versions) {
                  const version = model.versions.get(number);
                  if (!version || version.destroyed) continue;
                  if (step.kind === 'destroy') version.destroyed = true;
                  else version.deleted = step.kind === 'delete';
                }
                break;
              case 'keyMax':
                await env.MD('k', { max_versions: step.max });
                model.keyMax = step.max;
                break;
              case 'engineMax':
                await env.config({ max_versions: step.max });
                model.engineMax = step.max;
                break;
            }
            await check(env, model, storage);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

async function check(env: ReturnType<typeof setup>, model: Model, storage: Storage): Promise<void> {
  const response = await env.MR('k');
  if (model.current === 0 && model.keyMax === 0) {
    expect([200, 404]).toContain(response.status);
    return;
  }
  const meta = dataOf(response);
  expect(meta.current_version).toBe(model.current);
  expect(meta.oldest_version).toBe(model.oldest);
  const numbers = Object.keys(meta.versions).map(Number);
  expect(numbers).toEqual([...model.versions.keys()]);
  // The kept versions are always the newest ones, without gaps.
  if (numbers.length > 0)
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => model.current - numbers.length + 1 + i));
  let liveBlobs = 0;
  for (let number = 1; number <= model.current + 1; number++) {
    const version = model.versions.get(number);
    const read = await env.R('k', number);
    if (!version) {
      expect(read).toEqual({ status: 404, body: { errors: [] } });
      continue;
    }
    expect(meta.versions[String(number)].destroyed).toBe(version.destroyed);
    expect(meta.versions[String(number)].deletion_time !== '').toBe(version.deleted);
    if (!version.destroyed) liveBlobs += 1;
    expect(read.status).toBe(version.deleted || version.destroyed ? 404 : 200);
    expect(dataOf(read).data).toEqual(version.deleted || version.destroyed ? null : version.data);
  }
  // Pruned and destroyed versions leave no data behind.
  expect(await blobCount(storage)).toBe(liveBlobs);
}
