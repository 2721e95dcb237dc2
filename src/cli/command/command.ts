// What one `strongroom` subcommand is: the dispatcher in main.ts knows commands only through this shape, so a new
// command is one file and one row in its table.

/** Where a command reads and writes: the process's own streams and environment, or a test's. */
export interface CommandIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
}

/** Vault's exit codes: 0 success, 1 a local or usage error, 2 an error the server answered. */
export type ExitCode = 0 | 1 | 2;

/** One subcommand of `strongroom`. */
export interface Command {
  /** One line for `strongroom -h`. */
  readonly summary: string;
  /** What `strongroom help NAME` prints. */
  readonly usage: string;
  /**
   * Runs with the arguments after the command's name. A long-running command (the server) resolves only when it
   * stops.
   */
  run(args: readonly string[], io: CommandIo): Promise<ExitCode>;
}
