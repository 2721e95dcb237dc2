/**
 * The connection string as postgres.js reads it: the first host of a multi-host list stands for all of them, and the
 * rest must be a URL. Checking it the same way up front turns what the driver would fail on at every operation (with
 * an error quoting the whole text, password included) into one error at construction that quotes nothing.
 */
function driverUrl(connectionString: string): URL | undefined {
  try {
    const authority = connectionString.slice(connectionString.indexOf('://') + 3).split(/[?/]/)[0] ?? '';
    const hosts = decodeURIComponent(authority.slice(authority.indexOf('@') + 1));
    return new URL(connectionString.replace(hosts, hosts.split(',')[0] ?? ''));
  } catch {
    return undefined;
  }
}

export function checkConnectionString(connectionString: string): void {
  const url = driverUrl(connectionString);
  if (url?.protocol !== 'postgres:' && url?.protocol !== 'postgresql:') {
    throw new TypeError(
      "PostgresStorage's connectionString is not a postgres:// or postgresql:// URL that the driver can read (characters such as # / ? @ % in the user name or password must be percent-encoded)",
    );
  }
}

/** host:port/database, for messages: never the user name or the password. */
export function describeServer(connectionString: string): string {
  const url = driverUrl(connectionString);
  return url ? `${url.hostname || 'localhost'}:${url.port || 5432}${url.pathname}` : 'the configured address';
}
