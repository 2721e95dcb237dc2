// What one `strongroom` subcommand is: the dispatcher in main.ts knows commands only through this shape, so a new
// command is one file and one row in its table.
import type { CommandIo, ExitCode } from '../client/spec.js';

export type { CommandIo, ExitCode };

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
  /** A group's commands by name (`kv` has `put`, `get`, ...), for `strongroom help kv put`. */
  readonly subcommands?: Readonly<Record<string, Command>>;
}
