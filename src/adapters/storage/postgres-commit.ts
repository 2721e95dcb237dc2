import type { StorageOperation } from '../../ports/storage.js';

/**
 * A multi-key commit as one SQL statement, so that it costs one round trip instead of three (BEGIN, the statements,
 * COMMIT), and runs in the statement's own implicit transaction.
 *
 * The conditional operations' keys are first read with FOR UPDATE, which waits for any concurrent writer of them and
 * then holds their rows; the conditions are decided on those rows, and every change runs only when all of them hold.
 * A failed condition therefore changes nothing and is answered without an error. One race remains: a key that must be
 * absent may be inserted by another transaction after the check; the insert then adds no row, the final count differs
 * from the expected one, and a division by zero aborts the whole statement (SQLSTATE 22012), which the caller reports
 * as a failed condition.
 */
export interface CommitStatement {
  text: string;
  params: unknown[];
}

/**
 * Larger commits (a recursive delete, a move of a key with its history) run as a transaction of one statement per
 * operation: each distinct statement text is prepared and kept by the connection, and a statement per commit size
 * would grow that cache without bound.
 */
const MAX_OPERATIONS = 8;

/** The error the statement raises when a change it made conditionally did not happen after all. */
export const RACED_CONDITION = '22012';

const toBuffer = (value: Uint8Array) => Buffer.from(value.buffer, value.byteOffset, value.byteLength);

/**
 * Answers undefined for commits it does not cover: more than MAX_OPERATIONS operations, or a delete whose condition
 * is that the key be absent (nothing to lock and nothing to change; the transaction path holds an inserter off with a
 * placeholder row).
 */
export function commitStatement(table: string, operations: readonly StorageOperation[]): CommitStatement | undefined {
  if (operations.length > MAX_OPERATIONS) return undefined;
  if (operations.some((operation) => operation.type === 'delete' && operation.expected === null)) return undefined;
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const conditional = operations.some((operation) => operation.expected !== undefined);
  // With conditions, every change runs only once all of them held.
  const gate = conditional ? 'AND (SELECT ok FROM checked)' : '';
  const conditions: string[] = [];
  const locked: string[] = [];
  const changes: string[] = [];
  const counted: string[] = [];
  operations.forEach((operation, index) => {
    const key = param(operation.key);
    const name = `c${index}`;
    const { expected } = operation;
    if (expected !== undefined) {
      locked.push(key);
      counted.push(name);
    }
    if (expected === null) conditions.push(`NOT EXISTS (SELECT 1 FROM locked WHERE key = ${key})`);
    else if (expected !== undefined) conditions.push(`EXISTS (SELECT 1 FROM locked WHERE key = ${key} AND value = ${param(toBuffer(expected))})`);
    if (operation.type === 'delete') {
      changes.push(`${name} AS (DELETE FROM ${table} WHERE key = ${key} ${gate} RETURNING 1)`);
      return;
    }
    const value = param(toBuffer(operation.value));
    const onConflict = expected === null ? 'DO NOTHING' : 'DO UPDATE SET value = excluded.value';
    changes.push(`${name} AS (INSERT INTO ${table} (key, value) SELECT ${key}::text, ${value}::bytea WHERE true ${gate} ON CONFLICT (key) ${onConflict} RETURNING 1)`);
  });
  if (!conditional) return { text: `WITH ${changes.join(', ')} SELECT true AS ok`, params };
  const counts = counted.map((name) => `(SELECT count(*) FROM ${name})`).join(' * ');
  const text = [
    `WITH locked AS (SELECT key, value FROM ${table} WHERE key IN (${locked.join(', ')}) ORDER BY key FOR UPDATE),`,
    `checked AS (SELECT ${conditions.join(' AND ')} AS ok),`,
    changes.join(', '),
    // Not folded at planning: the divisor is a count known only once the changes ran.
    `SELECT CASE WHEN NOT (SELECT ok FROM checked) THEN false ELSE 1 / (${counts}) = 1 END AS ok`,
  ].join(' ');
  return { text, params };
}
