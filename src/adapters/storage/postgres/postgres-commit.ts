import type { StorageOperation } from '../../../ports/storage.js';

/**
 * A multi-key commit in SQL. Most commits are one statement (commitStatement), so that they cost one round trip instead
 * of three (BEGIN, the statements, COMMIT), and run in the statement's own implicit transaction; the others are a
 * transaction of one statement per operation (operationInTransaction).
 *
 * Each conditional operation is a statement that changes its row only when its condition holds there: an UPDATE or
 * DELETE matching the expected value, an INSERT that does nothing on conflict. PostgreSQL takes the row's lock for
 * it and, when a concurrent writer changed the row meanwhile, checks the condition again on the row as committed, so
 * the condition and the change are one step. The conditional operations run one after the other in key order (each
 * waits for the one before and runs only when it applied), which takes row locks in the same order in every commit;
 * the unconditional changes run only when the last one applied. So a commit whose first condition fails changes
 * nothing and answers false without an error; one that fails a later condition, after earlier ones applied, is
 * aborted by a division by zero (SQLSTATE 22012), which the caller also reports as a failed condition.
 */

/** One statement and its parameters, `$table` standing for the quoted table name (the reads build them too). */
export interface SqlStatement {
  text: string;
  params: unknown[];
}

/**
 * Larger commits (a recursive delete, a move of a key with its history) run as a transaction of one statement per
 * operation: each distinct statement text is prepared and kept by the connection, and a statement per commit size
 * would grow that cache without bound.
 */
const MAX_OPERATIONS = 8;

/** The error the statement raises when a condition failed after earlier ones had applied, to undo them. */
export const RACED_CONDITION = '22012';

const toBuffer = (value: Uint8Array) => Buffer.from(value.buffer, value.byteOffset, value.byteLength);

/**
 * Answers undefined for commits it does not cover: more than MAX_OPERATIONS operations, or a delete whose condition
 * is that the key be absent (nothing to lock and nothing to change; the transaction path holds an inserter off with a
 * placeholder row).
 */
export function commitStatement(table: string, operations: readonly StorageOperation[]): SqlStatement | undefined {
  if (operations.length > MAX_OPERATIONS) return undefined;
  if (operations.some((operation) => operation.type === 'delete' && operation.expected === null)) return undefined;
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const checks: string[] = [];
  const statements: string[] = [];
  for (const operation of operations) {
    if (operation.expected === undefined) continue;
    const name = `c${checks.length}`;
    const after = checks.length === 0 ? '' : ` AND EXISTS (SELECT 1 FROM c${checks.length - 1})`;
    const key = param(operation.key);
    if (operation.type === 'delete') {
      statements.push(
        `${name} AS (DELETE FROM ${table} WHERE key = ${key} AND value = ${param(toBuffer(operation.expected!))}${after} RETURNING 1)`,
      );
    } else if (operation.expected === null) {
      const value = param(toBuffer(operation.value));
      statements.push(
        `${name} AS (INSERT INTO ${table} (key, value) SELECT ${key}::text, ${value}::bytea WHERE true${after} ON CONFLICT (key) DO NOTHING RETURNING 1)`,
      );
    } else {
      const value = param(toBuffer(operation.value));
      statements.push(
        `${name} AS (UPDATE ${table} SET value = ${value} WHERE key = ${key} AND value = ${param(toBuffer(operation.expected))}${after} RETURNING 1)`,
      );
    }
    checks.push(name);
  }
  const gate = checks.length === 0 ? '' : ` AND EXISTS (SELECT 1 FROM ${checks[checks.length - 1]})`;
  operations.forEach((operation, index) => {
    if (operation.expected !== undefined) return;
    const key = param(operation.key);
    statements.push(
      operation.type === 'delete'
        ? `u${index} AS (DELETE FROM ${table} WHERE key = ${key}${gate})`
        : `u${index} AS (INSERT INTO ${table} (key, value) SELECT ${key}::text, ${param(toBuffer(operation.value))}::bytea WHERE true${gate} ON CONFLICT (key) DO UPDATE SET value = excluded.value)`,
    );
  });
  if (checks.length === 0) return { text: `WITH ${statements.join(', ')} SELECT true AS ok`, params };
  const applied = (name: string) => `(SELECT count(*) FROM ${name})`;
  const [first, last] = [applied(checks[0]!), applied(checks[checks.length - 1]!)];
  // The divisor is not folded at planning: it is a count known only once the statements ran.
  const text = `WITH ${statements.join(', ')} SELECT CASE WHEN ${last} = 1 THEN true WHEN ${first} = 0 THEN false ELSE 1 / (${first} - ${first}) = 1 END AS ok`;
  return { text, params };
}

/** Runs one statement in the commit's transaction, `$table` standing for the quoted table name. */
export type RunStatement = (text: string, params: unknown[]) => Promise<{ count: number }>;

/**
 * One operation of a commit that runs as a transaction (one that commitStatement does not cover); answers whether its
 * condition held.
 */
export async function operationInTransaction(run: RunStatement, operation: StorageOperation): Promise<boolean> {
  const { key, expected } = operation;
  if (operation.type === 'put') {
    const value = toBuffer(operation.value);
    if (expected === undefined)
      return (
        (
          await run(
            'INSERT INTO $table (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
            [key, value],
          )
        ).count === 1
      );
    if (expected === null)
      return (
        (await run('INSERT INTO $table (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, value]))
          .count === 1
      );
    return (
      (await run('UPDATE $table SET value = $2 WHERE key = $1 AND value = $3', [key, value, toBuffer(expected)]))
        .count === 1
    );
  }
  if (expected === undefined) return (await run('DELETE FROM $table WHERE key = $1', [key]), true);
  if (expected !== null)
    return (await run('DELETE FROM $table WHERE key = $1 AND value = $2', [key, toBuffer(expected)])).count === 1;
  // "Must be absent": a placeholder insert proves absence and holds concurrent inserters off until we commit.
  const inserted = await run(`INSERT INTO $table (key, value) VALUES ($1, '') ON CONFLICT (key) DO NOTHING`, [key]);
  // Removes our placeholder; when the key existed the commit rolls back, restoring it.
  await run('DELETE FROM $table WHERE key = $1', [key]);
  return inserted.count === 1;
}
