// The server's log level: which entries of its JSON log are written. Each entry carries its level; health checks,
// which load balancers send every few seconds, are logged at debug so that they do not drown the requests that matter.

// The shape of LogEntry in server-options.ts, which imports this file's type.
type LogEntry = Record<string, unknown>;

/** A level of the server's log: the least severe entry it writes. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The levels of the server's log, least severe first. */
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Whether `value` names a log level. */
export function isLogLevel(value: unknown): value is LogLevel {
  return LOG_LEVELS.includes(value as LogLevel);
}

/**
 * `log`, passing on only the entries at `level` or above. Every line the server logs goes through this, whoever adds
 * it; an entry without a known level is passed on, so that nothing is dropped by a typo.
 */
export function leveledLog(log: (entry: LogEntry) => void, level: LogLevel = 'info'): (entry: LogEntry) => void {
  if (!isLogLevel(level))
    throw new TypeError(`logLevel must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(level)}`);
  const least = LOG_LEVELS.indexOf(level);
  return (entry) => {
    const rank = LOG_LEVELS.indexOf(entry.level as LogLevel);
    if (rank === -1 || rank >= least) log(entry);
  };
}
