// A command that talks to a running server: parses Vault's flags (its own, -address, -ca-cert and, when it prints an
// answer, -format and -field), makes the client from the environment, runs, and turns each failure into Vault's exit
// code. `-h` anywhere among the flags prints the usage; `runWithFlags` is that part, which the local commands share.
import type { Command, CommandIo, ExitCode } from './command/command.js';
import { clientFrom, HTTP_FLAGS } from './client/api.js';
import { reportFailure } from './client/errors.js';
import { parseFlags, type FlagSpec, type Parsed } from './client/flags.js';
import { formatOf, OUTPUT_FLAGS } from './client/output.js';
import type { ClientCommandSpec } from './client/spec.js';

const HELP_FLAGS: FlagSpec = { h: 'bool', help: 'bool' };

/**
 * Parses `argv` by `flags` (and `-h`/`-help`), prints `usage` when asked, else runs `body`; a usage, local or server
 * failure it throws becomes its message and Vault's exit code.
 */
export async function runWithFlags(
  argv: readonly string[],
  io: CommandIo,
  usage: string,
  flags: FlagSpec,
  body: (parsed: Parsed) => Promise<ExitCode>,
): Promise<ExitCode> {
  try {
    const parsed = parseFlags(argv, { ...HELP_FLAGS, ...flags });
    if (parsed.flags.h || parsed.flags.help) {
      io.stdout.write(`${usage}\n`);
      return 0;
    }
    return await body(parsed);
  } catch (error) {
    return reportFailure(error, io.stderr, usage);
  }
}

/** Makes a {@link Command} of `spec`. */
export function clientCommand(spec: ClientCommandSpec): Command {
  const flagSpec: FlagSpec = {
    ...HTTP_FLAGS,
    ...(spec.prints === false ? { format: 'string' } : OUTPUT_FLAGS),
    ...spec.flags,
  };
  return {
    summary: spec.summary,
    usage: spec.usage,
    run: (argv, io) =>
      runWithFlags(argv, io, spec.usage, flagSpec, async ({ flags, args }) => {
        formatOf(flags);
        return spec.run({ flags, args, io, client: await clientFrom(io.env, flags) });
      }),
  };
}
