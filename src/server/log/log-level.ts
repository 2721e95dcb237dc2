// The server's log level: which entries of its JSON log are written. Each entry carries its level; health checks,
// which load balancers send every few seconds, are logged at debug so that they do not drown the requests that matter.

/**
 * One line of the server's own log, as a JSON object: a request (`time`, `level`, `request_id`, `remote`, `method`,
 * `path`, `status`, `ms`, and the caller's `accessor`) or a fault or warning (`msg`, `error`). A path is logged without
 * its query and with any token in it replaced; headers and bodies never are.
 */
export type LogEntry = Record<string, unknown>;

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
