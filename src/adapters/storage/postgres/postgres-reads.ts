import type { SqlStatement } from './postgres-commit.js';
import { prefixEnd, type Bound } from '../key-range.js';

/**
 * The reading statements of PostgresStorage, `$table` standing for the quoted table name. The listings walk the
 * primary-key index from `start` and stop at the end of the prefix's range, so their cost follows the names answered.
 */

/**
 * Up to this many keys are read with a list of parameters, one prepared statement per count; more with one array
 * parameter. The server keeps a generic plan for a statement only when it costs no more than a plan made for the
 * values at hand; for an array of unknown length it never does, so `= ANY($1)` would be planned again at every
 * execution, which cost more than the rest of the read here.
 */
const LISTED_KEYS = 8;

/** The rows (key, value) of these keys, those that exist. */
export function keysStatement(keys: readonly string[]): SqlStatement {
  const count = keys.length;
  if (count === 1) return { text: 'SELECT key, value FROM $table WHERE key = $1', params: [...keys] };
  if (count > LISTED_KEYS) return { text: 'SELECT key, value FROM $table WHERE key = ANY($1::text[])', params: [keys] };
  const list = Array.from({ length: count }, (_, index) => `$${index + 1}`).join(', ');
  return { text: `SELECT key, value FROM $table WHERE key IN (${list})`, params: [...keys] };
}

/**
 * Direct children in one statement: a recursive query hops from each child to the first key after it (past a whole
 * sub-folder at once), an index seek per listed name however large the sub-folders are.
 */
export function childrenStatement(prefix: string, start: Bound, limit: number | null): SqlStatement {
  const end = prefixEnd(prefix);
  const rest = (column: string) => `substr(${column}, $1)`;
  const slash = (column: string) => `strpos(${rest(column)}, '/')`;
  const bound = end === undefined ? '' : 'AND k.key < $5';
  return {
    text: `WITH RECURSIVE walk(key) AS (
         (SELECT k.key FROM $table k WHERE k.key ${start.inclusive ? '>=' : '>'} $2 ${bound} ORDER BY k.key LIMIT 1)
         UNION ALL
         SELECT (SELECT k.key FROM $table k
                 WHERE k.key >= CASE WHEN ${slash('w.key')} > 0
                                     THEN left(w.key, $4 + ${slash('w.key')} - 1) || '0'
                                     ELSE w.key || chr(1) END ${bound}
                 ORDER BY k.key LIMIT 1)
         FROM walk w WHERE w.key IS NOT NULL
       )
       SELECT CASE WHEN ${slash('key')} > 0 THEN left(${rest('key')}, ${slash('key')}) ELSE ${rest('key')} END AS name
       FROM walk WHERE key IS NOT NULL LIMIT $3`,
    params: [[...prefix].length + 1, start.key, limit, [...prefix].length, ...(end === undefined ? [] : [end])],
  };
}

/** Every key below the prefix from `start` on, as its path relative to the prefix: one range scan. */
export function keysPageStatement(prefix: string, start: Bound, limit: number): SqlStatement {
  const end = prefixEnd(prefix);
  return {
    text: `SELECT substr(key, $1) AS name FROM $table WHERE key ${start.inclusive ? '>=' : '>'} $2 ${end === undefined ? '' : 'AND key < $4'}
       ORDER BY key LIMIT $3`,
    params: [[...prefix].length + 1, start.key, limit, ...(end === undefined ? [] : [end])],
  };
}
