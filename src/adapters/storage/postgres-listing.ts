import type { SqlStatement } from './postgres-commit.js';
import { prefixEnd, type Bound } from './key-range.js';

/**
 * The listing statements of PostgresStorage, `$table` standing for the quoted table name. Both walk the primary-key
 * index from `start` and stop at the end of the prefix's range, so their cost follows the names answered.
 */

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
