// What a client command is before it becomes a `strongroom` command: its flags, its usage and its `run`, given the
// parsed flags, the arguments and a client. The process's streams and Vault's exit codes are defined here, at the
// bottom of the command line, so that command files in sub-folders can be written without leaning on src/cli.
import type { ApiClient } from './api.js';
import type { FlagSpec, FlagValue } from './flags.js';

/** Where a command reads and writes: the process's own streams and environment, or a test's. */
export interface CommandIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
}

/** Vault's exit codes: 0 success, 1 a local or usage error, 2 an error the server answered. */
export type ExitCode = 0 | 1 | 2;

/** What a client command's `run` gets. */
export interface ClientContext {
  readonly flags: Readonly<Record<string, FlagValue>>;
  readonly args: readonly string[];
  readonly client: ApiClient;
  readonly io: CommandIo;
}

/** How one client command is described. */
export interface ClientCommandSpec {
  readonly summary: string;
  readonly usage: string;
  /** Its own flags. */
  readonly flags?: FlagSpec;
  /** False for a command that prints only a confirmation: it takes no -format or -field. */
  readonly prints?: boolean;
  run(context: ClientContext): Promise<ExitCode>;
}
