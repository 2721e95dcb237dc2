// What a local command is before it becomes a `strongroom` command: a command that works with the server's
// environment on this machine (the operator's commands on the storage itself) rather than over a server's HTTP API.
import type { FlagSpec, FlagValue } from '../client/flags.js';
import type { CommandIo } from '../client/spec.js';

/** What a local command's `run` gets. */
export interface LocalContext {
  readonly flags: Readonly<Record<string, FlagValue>>;
  readonly args: readonly string[];
  readonly io: CommandIo;
}

/** How one local command is described. */
export interface LocalCommandSpec {
  /** Its name after `strongroom` (`operator backup`), which starts each failure's message. */
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** Its flags. */
  readonly flags?: FlagSpec;
  /** How many arguments it takes after its flags (none when absent). */
  readonly args?: number;
  /**
   * Does the work. A `UsageError` or `LocalError` it throws, and a refusal of the storage the operator can act on (not
   * empty, a wrong root key), exit 1; any other failure is the storage's, exit 2.
   */
  run(context: LocalContext): Promise<void>;
}
