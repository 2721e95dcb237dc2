import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { helpOf } from '../../src/core/framework/field-help.js';
import { bool, duration, int, str, stringList, typed } from '../../src/core/framework/fields.js';
import { declaredFields, readFields, type FieldReader } from '../../src/core/framework/routing-table.js';
import { InvalidRequest } from '../../src/lib/errors.js';

describe('what a field says about itself', () => {
  it('names the type of every builder, with the range an integer was given', () => {
    expect(
      [str(), bool(), duration(), stringList(), int(), int({ min: 0 }), int({ min: -1, max: 100 })].map(
        (field) => helpOf(field).type,
      ),
    ).toEqual(['string', 'boolean', 'duration', 'list of strings', 'integer', 'integer ≥ 0', 'integer, -1 to 100']);
    expect(helpOf(typed(z.unknown(), 'object or list')).type).toBe('object or list');
  });

  it('reads the description, default and deprecation through optional, nullable and refined wrappers', () => {
    const field = str()
      .refine((text) => text !== 'x')
      .nullable()
      .optional()
      .meta({ description: 'What it is for.', default: '', deprecated: true });
    expect(helpOf(field)).toEqual({ type: 'string', description: 'What it is for.', default: '', deprecated: true });
    expect(helpOf(int().optional().describe('Counted.'))).toEqual({ type: 'integer', description: 'Counted.' });
  });

  it('lists the fields of a schema or of a reader, by name', () => {
    const schema = z.object({ a: bool().optional().describe('A.'), b: str() });
    expect(declaredFields(schema)).toEqual([
      ['a', { type: 'boolean', description: 'A.' }],
      ['b', { type: 'string' }],
    ]);
    const reader: FieldReader = { fields: { c: { type: 'string', description: 'C.' } }, read: () => ({}) };
    expect(declaredFields(reader)).toEqual([['c', { type: 'string', description: 'C.' }]]);
    expect(declaredFields(undefined)).toEqual([]);
  });
});

describe('fields read from an empty input', () => {
  it('answers each request fields of its own, however a handler changes them', () => {
    const schema = z.object({ version: int().optional(), flag: bool().optional() });
    const first = readFields(schema, {}) as Record<string, unknown>;
    expect(first).toEqual({});
    first.version = 7;
    const second = readFields(schema, {}) as Record<string, unknown>;
    expect(second).toEqual({});
    expect(second).not.toBe(first);
    expect(readFields(schema, { version: 3 })).toEqual({ version: 3 });
  });

  it('refuses an empty input every time when the schema requires a field', () => {
    const schema = z.object({ name: str() });
    for (let attempt = 0; attempt < 3; attempt++) expect(() => readFields(schema, {})).toThrow(InvalidRequest);
  });
});
