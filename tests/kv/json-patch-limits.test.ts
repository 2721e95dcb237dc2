import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidRequest } from '../../src/lib/errors.js';
import { applyJsonPatch, jsonPatchOperations, type JsonPatchOperation } from '../../src/kv/values/json-patch.js';
import type { ValueLimits } from '../../src/kv/values/value-limits.js';
import { expectError, JSON_PATCH, setup } from './helpers.js';

/**
 * The applier's limits, each at the limit and one past it: the size of every intermediate result (kept exactly as
 * operations add and remove), its depth, and the work a request may do; and the array-index and pointer rules at
 * their edges.
 */

const WIDE: ValueLimits = { maxBytes: 1 << 30, maxDepth: 10_000 };
const ops = (operations: unknown[]) => jsonPatchOperations.parse(operations);
const apply = (document: unknown, operations: unknown[], limits: ValueLimits = WIDE) =>
  applyJsonPatch(document, ops(operations), limits);
/** The message of the 400 an application answers, or undefined when it succeeds. */
function refusal(document: unknown, operations: unknown[], limits: ValueLimits = WIDE): string | undefined {
  try {
    apply(document, operations, limits);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequest);
    return (error as Error).message;
  }
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
function heightOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(heightOf));
}

const NAMES = ['a', 'b', 'é', '0', '-'];
const leaf = fc.oneof(
  fc.integer({ min: -99, max: 999 }),
  fc.constantFrom('', 'x', 'long text', 'ü', null, true, false),
);
const tree = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('object'), tie('array')),
  object: fc.dictionary(fc.constantFrom(...NAMES), tie('value'), { maxKeys: 3 }),
  array: fc.array(tie('value'), { maxLength: 3 }),
})) as { value: fc.Arbitrary<unknown>; object: fc.Arbitrary<Record<string, unknown>> };
const pointer = fc
  .array(fc.constantFrom(...NAMES, '1'), { maxLength: 2 })
  .map((tokens) => tokens.map((token) => `/${token}`).join(''));
const operation = fc.oneof(
  // Adds and copies grow the document; the others shrink it or change nothing, and make the sizes move both ways.
  { weight: 3, arbitrary: fc.record({ op: fc.constant('add'), path: pointer, value: tree.value }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('copy'), from: pointer, path: pointer }) },
  fc.record({ op: fc.constantFrom('replace', 'test'), path: pointer, value: tree.value }),
  fc.record({ op: fc.constant('remove'), path: pointer }),
  fc.record({ op: fc.constantFrom('move', 'copy'), from: pointer, path: pointer }),
);
// At most three operations: the work they do stays under the budget whatever the size limit (see the work test).
const patch = fc.tuple(tree.object, fc.array(operation, { minLength: 1, maxLength: 3 }));

/** The result after each operation, applied without limits; undefined when an operation fails on its own. */
function states(document: unknown, operations: unknown[]): unknown[] | undefined {
  const results: unknown[] = [];
  for (let count = 1; count <= operations.length; count++) {
    if (refusal(document, operations.slice(0, count)) !== undefined) return undefined;
    results.push(apply(document, operations.slice(0, count)));
  }
  return results;
}

/**
 * One limit at its edge: a patch succeeds with the limit at its largest result (a stored document is always within
 * the limit, so the limit is never below the document), and fails one unit less when it grew the document past that.
 * Answers how many of the generated patches grew it, so that the property is seen to bite.
 */
function atTheEdge(
  measureOf: (value: unknown) => number,
  limitsAt: (limit: number) => ValueLimits,
  refused: RegExp,
  seed: number,
): number {
  let grew = 0;
  fc.assert(
    fc.property(patch, ([document, operations]) => {
      const results = states(document, operations);
      if (!results) return;
      const largest = Math.max(measureOf(document), ...results.map(measureOf));
      expect(apply(document, operations, limitsAt(largest))).toEqual(results.at(-1));
      if (largest <= measureOf(document)) return;
      grew += 1;
      expect(refusal(document, operations, limitsAt(largest - 1))).toMatch(refused);
    }),
    { seed, numRuns: 2000 },
  );
  return grew;
}

describe('the applier keeps the exact size and depth of every intermediate result (property)', () => {
  it('size: the limit at the largest result is enough, one byte less is refused', () => {
    const grew = atTheEdge(
      bytesOf,
      (maxBytes) => ({ maxBytes, maxDepth: WIDE.maxDepth }),
      /larger than the limit of \d+ bytes/,
      27_5,
    );
    expect(grew).toBeGreaterThan(100);
  });

  it('depth: the limit at the deepest result is enough, one level less is refused', () => {
    const deepened = atTheEdge(
      heightOf,
      (maxDepth) => ({ maxBytes: WIDE.maxBytes, maxDepth }),
      /nested more than \d+ levels deep/,
      27_18,
    );
    expect(deepened).toBeGreaterThan(100);
  });
});

describe('limits at the edge, through PATCH data/', () => {
  it('replacing the whole document: exactly the size limit is accepted, one byte more refused', async () => {
    const env = setup({ maxValueBytes: 20 });
    await env.W('k', { a: 1 });
    // {"s":"xxxxxxxxxxxx"} is 20 bytes.
    expect(
      (await env.PATCH('k', { data: [{ op: 'replace', path: '', value: { s: 'x'.repeat(12) } }] }, JSON_PATCH)).status,
    ).toBe(200);
    expectError(
      await env.PATCH('k', { data: [{ op: 'replace', path: '', value: { s: 'x'.repeat(13) } }] }, JSON_PATCH),
      400,
      'operation 0 (replace) failed: the result would be larger',
    );
  });

  it('the work budget (8 times the size limit): spending it exactly is accepted, two bytes more refused', () => {
    // The document {} costs 2 bytes to measure, as does each test of {}; the budget of a 10-byte limit is 80.
    const tests = (count: number) => Array.from({ length: count }, () => ({ op: 'test', path: '', value: {} }));
    expect(apply({}, tests(39), { maxBytes: 10, maxDepth: 5 })).toEqual({});
    expect(refusal({}, tests(40), { maxBytes: 10, maxDepth: 5 })).toBe(
      'JSON Patch operation 39 (test) failed: the operations do more work than a request may (8 times the value size limit)',
    );
  });
});

describe('array indices and pointers at their edges', () => {
  const twelve = () => ({ list: Array.from({ length: 12 }, (_, index) => index) });

  it('reads indices of several digits', () => {
    expect(apply(twelve(), [{ op: 'replace', path: '/list/10', value: 'ten' }])).toEqual({
      list: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 'ten', 11],
    });
    expect(apply(twelve(), [{ op: 'copy', from: '/list/11', path: '/last' }])).toEqual({ ...twelve(), last: 11 });
  });

  it('an index equal to the length exists only for add, which appends; one past it never', () => {
    expect(apply(twelve(), [{ op: 'add', path: '/list/12', value: 'end' }])).toEqual({
      list: [...twelve().list, 'end'],
    });
    for (const operation of [
      { op: 'replace', path: '/list/12', value: 1 },
      { op: 'remove', path: '/list/12' },
      { op: 'test', path: '/list/12', value: null },
      { op: 'copy', from: '/list/12', path: '/x' },
      { op: 'move', from: '/list/12', path: '/x' },
      { op: 'add', path: '/list/13', value: 1 },
    ]) {
      expect(refusal(twelve(), [operation])).toMatch(/path "\/list\/1[23]" does not exist$/);
    }
  });

  it('"-" names the end of an array only for add', () => {
    expect(apply({ a: [1] }, [{ op: 'add', path: '/a/-', value: 2 }])).toEqual({ a: [1, 2] });
    for (const operation of [
      { op: 'remove', path: '/a/-' },
      { op: 'replace', path: '/a/-', value: 1 },
      { op: 'test', path: '/a/-', value: 1 },
      { op: 'copy', from: '/a/-', path: '/b' },
      { op: 'add', path: '/a/-/x', value: 1 },
    ]) {
      expect(refusal({ a: [1] }, [operation])).toMatch(/path "\/a\/-(\/x)?" does not exist$/);
    }
  });

  it('the whole document can be replaced, tested and moved onto itself, never removed', () => {
    expect(apply({ a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }])).toEqual({ b: 2 });
    expect(apply({ a: 1 }, [{ op: 'move', from: '', path: '' }])).toEqual({ a: 1 });
    expect(apply({ a: [1] }, [{ op: 'move', from: '/a', path: '/a' }])).toEqual({ a: [1] });
    expect(refusal({ a: 1 }, [{ op: 'move', from: '/b', path: '/b' }])).toBe(
      'JSON Patch operation 0 (move) failed: path "/b" does not exist',
    );
    expect(refusal({ a: 1 }, [{ op: 'remove', path: '' }])).toBe(
      'JSON Patch operation 0 (remove) failed: the whole document cannot be removed',
    );
    expect(refusal({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }])).toBe(
      'JSON Patch operation 0 (test) failed: the value at "/a" is not the expected value',
    );
  });

  it('a member of a scalar does not exist, whatever the operation', () => {
    for (const operation of [
      { op: 'add', path: '/a/x', value: 1 },
      { op: 'remove', path: '/a/x' },
      { op: 'copy', from: '/b', path: '/a/x' },
    ]) {
      expect(refusal({ a: 1, b: 2 }, [operation])).toMatch(/failed: path "\/a\/x" does not exist$/);
    }
  });

  it('a member added by one operation can be replaced, moved and removed by the next ones', () => {
    const added = { op: 'add', path: '/x', value: 1 };
    expect(apply({}, [added, { op: 'remove', path: '/x' }])).toEqual({});
    expect(apply({}, [added, { op: 'replace', path: '/x', value: 2 }, { op: 'add', path: '/x', value: 3 }])).toEqual({
      x: 3,
    });
    expect(apply({}, [added, { op: 'move', from: '/x', path: '/y' }, { op: 'remove', path: '/y' }])).toEqual({});
  });

  it('removing the last element of an array frees no comma: the size stays exact', () => {
    // {"a":[],"b":"x"} is 16 bytes.
    const operations = [
      { op: 'remove', path: '/a/0' },
      { op: 'add', path: '/b', value: 'x' },
    ];
    expect(apply({ a: [1] }, operations, { maxBytes: 16, maxDepth: 3 })).toEqual({ a: [], b: 'x' });
    expect(refusal({ a: [1] }, operations, { maxBytes: 15, maxDepth: 3 })).toMatch(/larger than the limit of 15 bytes/);
  });

  it('a move onto itself changes nothing, not even the order of members', () => {
    expect(JSON.stringify(apply({ a: 1, b: 2 }, [{ op: 'move', from: '/a', path: '/a' }]))).toBe('{"a":1,"b":2}');
  });

  it('added members are plain data, as JSON.parse makes them, whatever their name', () => {
    const result = apply({}, [
      { op: 'add', path: '/__proto__', value: { x: 1 } },
      { op: 'add', path: '/a', value: 1 },
    ]) as object;
    expect(Object.getOwnPropertyDescriptors(result)).toEqual(
      Object.getOwnPropertyDescriptors(JSON.parse('{"__proto__":{"x":1},"a":1}')),
    );
  });

  it('a member added twice, or replaced, is one member: later sizes stay exact', () => {
    // {"a":"yyyy"} is 12 bytes: the second add replaces the member, it does not add its size again.
    expect(
      apply(
        { a: 'x' },
        [
          { op: 'add', path: '/a', value: 'yy' },
          { op: 'add', path: '/a', value: 'yyyy' },
        ],
        { maxBytes: 12, maxDepth: 3 },
      ),
    ).toEqual({ a: 'yyyy' });
    expect(JSON.stringify(apply({}, [{ op: 'add', path: '/a', value: 1 }]))).toBe('{"a":1}');
  });
});

describe('malformed operations', () => {
  it.each([
    [[{ op: 'add', path: 'a', value: 1 }], 'path', 'must be a JSON pointer ("" or starting with "/")'],
    [[{ op: 'copy', from: 'a', path: '/b' }], 'from', 'must be a JSON pointer ("" or starting with "/")'],
    [[{ op: 'add', path: '/a' }], 'value', 'is required'],
    [[{ op: 'replace', path: '/a' }], 'value', 'is required'],
    [[{ op: 'test', path: '/a', value: undefined }], 'value', 'is required'],
  ])('%j is refused, naming the member, and is a 400 through PATCH', async (operations, member, message) => {
    const parsed = jsonPatchOperations.safeParse(operations);
    expect(parsed.error?.issues).toEqual([{ code: 'custom', path: [0, member], message }]);
    const env = setup();
    await env.W('k', { a: 1 });
    expectError(await env.PATCH('k', { data: operations }, JSON_PATCH), 400, `data.0.${member}`);
  });

  it('a fault that is no failed operation is not turned into a 400 (the dispatcher answers it as a 500)', () => {
    const broken = [{ op: 'add', path: 7, value: 1 }] as unknown as JsonPatchOperation[];
    expect(() => applyJsonPatch({}, broken, WIDE)).toThrow(TypeError);
  });
});
