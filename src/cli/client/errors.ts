// The three ways a command fails, each with Vault's exit code: how it was called (1), something on this side (1), and
// the server's refusal or absence, or for a command on the storage itself the storage's failure (2).

/** A mistake in how the command was called: printed with its usage, exit code 1. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A problem on this side (a file that cannot be read, a bad setting): exit code 1. */
export class LocalError extends Error {
  override readonly name = 'LocalError';
}

/** The server answered with an error, or could not be reached (or, for a local command, the storage failed): exit 2. */
export class ServerError extends Error {
  override readonly name = 'ServerError';
  constructor(
    message: string,
    /** The HTTP status; 0 when no answer came. */
    readonly status: number,
  ) {
    super(message);
  }
}

/** Prints what went wrong and answers the exit code; anything else is a fault of the command and is rethrown. */
export function reportFailure(error: unknown, stderr: NodeJS.WritableStream, usage: string): 1 | 2 {
  if (error instanceof UsageError) {
    stderr.write(`${error.message}\n\n${usage}\n`);
    return 1;
  }
  if (error instanceof LocalError) {
    stderr.write(`${error.message}\n`);
    return 1;
  }
  if (error instanceof ServerError) {
    stderr.write(`${error.message}\n`);
    return 2;
  }
  throw error;
}
