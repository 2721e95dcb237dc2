import { InvalidRequest } from '../../lib/errors.js';
import { validatePath } from '../../core/framework/path.js';

/** Path checks of the typed methods: the same rules as requests through handle(). */

function checkedPath(path: unknown): string {
  if (typeof path !== 'string') throw new InvalidRequest('the path must be a string');
  // The root folder is the one empty path there is.
  if (path !== '') validatePath(path);
  return path;
}

/** A key path: non-empty, no '.', '..' or empty segments, no trailing '/'. */
export function keyPath(path: unknown): string {
  const checked = checkedPath(path);
  if (checked === '' || checked.endsWith('/'))
    throw new InvalidRequest(`invalid key path ${JSON.stringify(checked)}: a key is non-empty and does not end in '/'`);
  return checked;
}

/** A folder to list: '' is the root; 'a/b' means 'a/b/'. */
export function folderPath(folder: unknown): string {
  const checked = checkedPath(folder);
  return checked === '' || checked.endsWith('/') ? checked : `${checked}/`;
}
