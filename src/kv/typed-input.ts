import type { z } from 'zod';
import { InvalidRequest } from '../core/errors.js';
import { describeFieldError } from '../core/fields.js';
import { validatePath } from '../core/path.js';
import { checkJsonDocument } from '../core/request-shape.js';

/** Input checks of the typed methods: the same schemas and path rules as requests through handle(). */

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  checkJsonDocument(input, 'the input');
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new InvalidRequest(describeFieldError(parsed.error));
  return parsed.data;
}

function checkedPath(path: unknown): string {
  if (typeof path !== 'string') throw new InvalidRequest('the path must be a string');
  // The root folder is the one empty path there is.
  if (path !== '') validatePath(path);
  return path;
}

/** A key path: non-empty, no '.', '..' or empty segments, no trailing '/'. */
export function keyPath(path: unknown): string {
  const checked = checkedPath(path);
  if (checked === '' || checked.endsWith('/')) throw new InvalidRequest(`invalid key path ${JSON.stringify(checked)}: a key is non-empty and does not end in '/'`);
  return checked;
}

/** A folder to list: '' is the root; 'a/b' means 'a/b/'. */
export function folderPath(folder: unknown): string {
  const checked = checkedPath(folder);
  return checked === '' || checked.endsWith('/') ? checked : `${checked}/`;
}
