// A command that works on the server's storage directly, with the server's environment (operator rewrap, rekey,
// backup, restore): the flags, the help and the failure reporting of the client commands, with what the storage
// throws sorted into Vault's exit codes: a refusal the operator can act on exits 1, a storage that fails exits 2, as a
// server error does for the commands that talk to a server.
import { StorageNotEmpty, WrongRootKey } from '../lib/errors.js';
import type { Command } from './command/command.js';
import type { LocalCommandSpec } from './command/local-spec.js';
import { LocalError, ServerError, UsageError } from './client/errors.js';
import { expectArgs } from './client/flags.js';
import { runWithFlags } from './client-command.js';

// A TypeError is how the library refuses a setting it is given (a malformed STRONGROOM_STORAGE_URL, say).
const isRefusal = (error: unknown) =>
  error instanceof LocalError ||
  error instanceof StorageNotEmpty ||
  error instanceof WrongRootKey ||
  error instanceof TypeError;

/** What `error` is to the operator, its message led by the command's name (a storage's own message lacks it). */
function asFailure(error: unknown, name: string): unknown {
  if (error instanceof UsageError) return error;
  const message = `strongroom ${name}: ${error instanceof Error ? error.message : String(error)}`;
  return isRefusal(error) ? new LocalError(message) : new ServerError(message, 0);
}

/** Makes a {@link Command} of `spec`. */
export function localCommand(spec: LocalCommandSpec): Command {
  return {
    summary: spec.summary,
    usage: spec.usage,
    run: (argv, io) =>
      runWithFlags(argv, io, spec.usage, spec.flags ?? {}, async ({ flags, args }) => {
        expectArgs(args, spec.args ?? 0);
        await spec.run({ flags, args, io }).catch((error: unknown) => {
          throw asFailure(error, spec.name);
        });
        return 0;
      }),
  };
}
