import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../src/kv/values/merge-patch.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Member names that tempt prototype pollution, plus ordinary ones that overlap often. */
const NAMES = ['a', 'b', 'c', '__proto__', 'constructor', 'prototype', 'toString'];

/** Objects are built with Object.fromEntries, which defines "__proto__" as an own member like JSON.parse does. */
function objectOf(value: fc.Arbitrary<Json>): fc.Arbitrary<{ [key: string]: Json }> {
  return fc
    .uniqueArray(fc.tuple(fc.constantFrom(...NAMES), value), { selector: ([name]) => name, maxLength: 5 })
    .map((entries) => Object.fromEntries(entries));
}

const { json } = fc.letrec<{ json: Json; object: { [key: string]: Json } }>((tie) => ({
  json: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'json' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.string({ maxLength: 4 }),
    fc.array(tie('json'), { maxLength: 3 }),
    tie('object'),
  ),
  object: objectOf(tie('json')),
}));

function isObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Drops null members (outside arrays): the documents a merge patch can produce. */
function withoutNulls(value: Json): Json {
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== null)
      .map(([name, member]) => [name, withoutNulls(member)]),
  );
}

/** The merge patch that turns `from` into `to`, built independently of the implementation under test. */
function diff(from: { [key: string]: Json }, to: { [key: string]: Json }): { [key: string]: Json } {
  const entries: [string, Json][] = [];
  for (const name of Object.keys(from)) if (!Object.hasOwn(to, name)) entries.push([name, null]);
  for (const [name, target] of Object.entries(to)) {
    const source = from[name];
    entries.push([
      name,
      isObject(source) && isObject(target) && Object.hasOwn(from, name) ? diff(source, target) : target,
    ]);
  }
  return Object.fromEntries(entries);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

/** JSON text with members sorted, so that comparisons ignore member order. */
function canonical(value: unknown): string {
  const sorted = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sorted);
    if (!isObject(item)) return item;
    return Object.fromEntries(
      Object.keys(item)
        .sort()
        .map((name) => [name, sorted(item[name])]),
    );
  };
  return JSON.stringify(sorted(value));
}

describe('mergePatch (RFC 7396)', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('RFC 7396 appendix A: %j patched with %j is %j', (target, patch, expected) => {
    expect(mergePatch(target, patch)).toEqual(expected);
  });

  it('turns any document into any null-free document through their diff', () => {
    fc.assert(
      fc.property(objectOf(json), objectOf(json), (from, rawTo) => {
        const to = withoutNulls(rawTo) as { [key: string]: Json };
        expect(canonical(mergePatch(from, diff(from, to)))).toBe(canonical(to));
      }),
      { numRuns: 300 },
    );
  });

  it('is idempotent, leaves its inputs alone, and keeps members the patch does not name', () => {
    fc.assert(
      fc.property(objectOf(json), objectOf(json), (target, patch) => {
        deepFreeze(target);
        deepFreeze(patch);
        const once = mergePatch(target, patch) as { [key: string]: Json };
        expect(canonical(mergePatch(once, patch))).toBe(canonical(once));
        for (const [name, value] of Object.entries(target)) {
          if (!Object.hasOwn(patch, name)) expect(canonical(once[name])).toBe(canonical(value));
        }
        for (const [name, value] of Object.entries(patch)) {
          if (value === null) expect(Object.hasOwn(once, name)).toBe(false);
          else if (!isObject(value)) expect(canonical(once[name])).toBe(canonical(value));
          else expect(isObject(once[name])).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never brings null members into a null-free document', () => {
    fc.assert(
      fc.property(objectOf(json), objectOf(json), (rawTarget, patch) => {
        const target = withoutNulls(rawTarget);
        const result = mergePatch(target, patch) as Json;
        expect(canonical(withoutNulls(result))).toBe(canonical(result));
      }),
      { numRuns: 300 },
    );
  });

  it('treats "__proto__" and friends as ordinary members and never touches a prototype', () => {
    fc.assert(
      fc.property(objectOf(json), objectOf(json), (target, patch) => {
        const result = mergePatch(target, patch) as object;
        expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
        expect(Object.keys(Object.prototype)).toEqual([]);
        expect(canonical(JSON.parse(canonical(result)))).toBe(canonical(result));
      }),
      { numRuns: 300 },
    );
    const result = mergePatch({}, JSON.parse('{"__proto__":{"polluted":true}}')) as Record<string, unknown>;
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
