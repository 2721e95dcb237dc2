import { InvalidRequest } from '../../lib/errors.js';
import { isPlainObject } from './fields.js';
import { checkJsonDocument } from './request-shape.js';
import { readFields, type FieldReader } from './routing-table.js';
import type { z } from 'zod';

/** Input check of the engines' typed methods: the same schemas or readers, and the same messages, as through handle(). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S>;
export function parseInput<F>(reader: FieldReader<F>, input: unknown): F;
export function parseInput(source: z.ZodType | FieldReader, input: unknown): unknown {
  checkJsonDocument(input, 'the input');
  // A schema words its own refusal of a non-object; a reader is only ever handed objects.
  if ('read' in source && !isPlainObject(input)) throw new InvalidRequest('the input must be a JSON object');
  return readFields(source, input as Record<string, unknown>);
}
