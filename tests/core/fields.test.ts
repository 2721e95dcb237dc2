import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { bool, duration, int, intList, object, str, stringList, stringMap } from '../../src/core/framework/fields.js';

const parse = (schema: z.ZodType, value: unknown) => schema.safeParse(value);

describe('loose field conversions', () => {
  it('integers accept numbers, numeric strings and booleans', () => {
    expect(parse(int(), 3.9).data).toBe(3);
    expect(parse(int(), '12').data).toBe(12);
    expect(parse(int(), true).data).toBe(1);
    expect(parse(int(), 'x').success).toBe(false);
    expect(parse(int({ min: 0 }), -1).success).toBe(false);
    expect(parse(int(), 2 ** 60).success).toBe(false);
    expect(parse(int(), {}).success).toBe(false);
  });

  it('booleans accept Vault spellings and nothing else', () => {
    for (const value of [true, 'true', 'T', '1', 1]) expect(parse(bool(), value).data).toBe(true);
    for (const value of [false, 'false', 'f', '0', 0]) expect(parse(bool(), value).data).toBe(false);
    for (const value of ['yes', null, {}, []]) expect(parse(bool(), value).success).toBe(false);
  });

  it('strings accept scalars but not structures', () => {
    expect(parse(str(), 5).data).toBe('5');
    expect(parse(str(), {}).success).toBe(false);
    expect(parse(str({ maxLength: 3 }), 'abcd').success).toBe(false);
  });

  it('durations accept seconds and Go syntax; negatives only when allowed', () => {
    expect(parse(duration(), '1h').data).toBe(3600);
    expect(parse(duration(), 30).data).toBe(30);
    expect(parse(duration(), '-1s').success).toBe(false);
    expect(parse(duration({ allowNegative: true }), '-1s').data).toBe(-1);
    expect(parse(duration(), true).success).toBe(false);
  });

  it('lists accept arrays and comma-separated strings', () => {
    expect(parse(stringList(), 'a, b,,c').data).toEqual(['a', 'b', 'c']);
    expect(parse(stringList(), ['x', 1]).data).toEqual(['x', '1']);
    expect(parse(stringList(), '').data).toEqual([]);
    expect(parse(stringList(), [{}]).success).toBe(false);
    expect(parse(intList(), '1,2').data).toEqual([1, 2]);
    expect(parse(intList(), ['1', 2]).data).toEqual([1, 2]);
    expect(parse(intList(), 3).data).toEqual([3]);
    expect(parse(intList(), '').data).toEqual([]);
    expect(parse(intList(), ['a']).success).toBe(false);
  });

  it('objects and string maps', () => {
    expect(parse(object(), null).data).toEqual({});
    expect(parse(object({ nullable: false }), null).success).toBe(false);
    expect(parse(object(), [1]).success).toBe(false);
    expect(parse(stringMap(), { a: 'b' }).data).toEqual({ a: 'b' });
    expect(parse(stringMap(), { a: 1 }).success).toBe(false);
    const hostile = parse(stringMap(), JSON.parse('{"__proto__":"x"}')).data as Record<string, string>;
    expect(Object.getPrototypeOf(hostile)).toBe(Object.prototype);
    expect(Object.keys(hostile)).toEqual(['__proto__']);
  });
});
