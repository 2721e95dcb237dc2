import type { z } from 'zod';
import { InvalidRequest } from './errors.js';
import { describeFieldError } from './fields.js';
import { checkJsonDocument } from './request-shape.js';

/** Input check of the engines' typed methods: the same schemas, and the same messages, as requests through handle(). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  checkJsonDocument(input, 'the input');
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new InvalidRequest(describeFieldError(parsed.error));
  return parsed.data;
}
