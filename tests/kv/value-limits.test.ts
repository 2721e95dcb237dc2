import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { measure } from '../../src/kv/values/value-limits.js';

describe('measure', () => {
  it('counts the bytes JSON.stringify writes in UTF-8, and the nesting, of any JSON value', () => {
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom('"', '\\', '\n', '\u007f', '\u2028', 'é', '😀'),
        fc.string({ unit: 'grapheme', maxLength: 1 }),
        fc.string({ unit: 'binary', maxLength: 1 }),
      ),
    });
    const value = fc.letrec((tie) => ({
      json: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue(),
        text,
        fc.array(tie('json')),
        fc.dictionary(text, tie('json')),
      ),
    })).json;
    fc.assert(
      fc.property(value, (json) => {
        const { bytes, height } = measure(json, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
        expect(bytes).toBe(Buffer.byteLength(JSON.stringify(json)));
        const depth = (node: unknown): number =>
          typeof node !== 'object' || node === null ? 0 : 1 + Math.max(0, ...Object.values(node).map(depth));
        expect(height).toBe(depth(json));
      }),
    );
  });

  it('stops once past a cap, answering more than the cap', () => {
    const long = { a: 'x'.repeat(5000), b: Array.from({ length: 100 }, () => 'y'.repeat(100)) };
    expect(measure(long, 1000, 10).bytes).toBeGreaterThan(1000);
    let deep: unknown = 1;
    for (let level = 0; level < 50; level++) deep = [deep];
    expect(measure(deep, 1e6, 20).height).toBeGreaterThan(20);
  });
});
