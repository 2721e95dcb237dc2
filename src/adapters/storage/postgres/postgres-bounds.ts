import { StorageUnavailable } from '../../../lib/errors.js';
import type { PostgresSettings } from './postgres-options.js';

/**
 * Failures to reach the server at all, or to get an answer in time (57014: statement_timeout; 53300: no connection
 * slot left), as opposed to errors in a statement: they make the operation StorageUnavailable.
 */
const UNAVAILABLE =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|CONNECT_TIMEOUT|CONNECTION_CLOSED|CONNECTION_ENDED|CONNECTION_DESTROYED|57P01|57P02|57P03|57014|53300|08\d{3})$/;

/** Failures that say nothing against the connections themselves: the server answered on them. */
const CONNECTIONS_SOUND = new Set(['57014', '53300']);

/**
 * Runs one operation of the port within the timeouts: a failure to reach the server, or no answer within both
 * timeouts (the connection's wait and the statement's run), rejects with StorageUnavailable, which names the server
 * (`where`, without credentials) and the cause. Other errors pass. A statement still running when the time is up goes
 * on (postgres.js cannot withdraw it) but is not awaited; the server's statement_timeout ends it soon after.
 */
export async function bounded<T>(work: () => Promise<T>, settings: PostgresSettings, where: string): Promise<T> {
  const seconds = settings.connectTimeoutSeconds + settings.statementTimeoutSeconds;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StorageUnavailable(where, `no answer within ${seconds} s`)), seconds * 1000);
  });
  const running = work();
  running.catch(() => undefined);
  try {
    return await Promise.race([running, expired]);
  } catch (error) {
    if (error instanceof StorageUnavailable) throw error;
    const code = String((error as { code?: unknown }).code);
    if (!UNAVAILABLE.test(code)) throw error;
    throw new StorageUnavailable(where, code, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the pool that failed with `error` may hold broken connections, and should be replaced. A connection whose
 * session the server ended while a query ran can keep the server's last error and hand it to the next query it gets,
 * after the server is back (postgres.js 3.4); a silent one may never answer again.
 */
export function poolSuspect(error: unknown): boolean {
  return error instanceof StorageUnavailable && !CONNECTIONS_SOUND.has(error.reason);
}
