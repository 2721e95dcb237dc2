// How an operator command ends: a line on stderr and Vault's exit code. Refusals the operator can act on (a bad flag,
// a file that is not a backup, a storage that is not empty, a key that does not fit) exit 1 with their message; a
// storage that fails exits 2, as a server error does for the commands that talk to a server.
import { StorageNotEmpty, WrongRootKey } from '../../lib/errors.js';
import type { CommandIo, ExitCode } from '../command.js';

/** A mistake in how the command was called: its message and the usage are printed, exit 1. */
export class UsageError extends Error {}

/** A refusal the operator can act on, exit 1 (the message says what to do). */
export class OperatorRefusal extends Error {}

const isRefusal = (error: unknown) =>
  error instanceof OperatorRefusal ||
  error instanceof StorageNotEmpty ||
  error instanceof WrongRootKey ||
  error instanceof TypeError;

/** Runs `work`, turning what it throws into a message and an exit code. */
export async function runOperator(
  name: string,
  usage: string,
  io: CommandIo,
  work: () => Promise<void>,
): Promise<ExitCode> {
  try {
    await work();
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UsageError) {
      io.stderr.write(`strongroom operator ${name}: ${message}\n\n${usage}\n`);
      return 1;
    }
    io.stderr.write(`strongroom operator ${name}: ${message}\n`);
    return isRefusal(error) ? 1 : 2;
  }
}
