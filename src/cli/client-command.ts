// A command that talks to a running server: parses Vault's flags (its own, -address, -ca-cert and, when it prints an
// answer, -format and -field), makes the client from the environment, runs, and turns each failure into Vault's exit
// code. `-h` anywhere among the flags prints the usage.
import type { Command } from './command/command.js';
import { clientFrom, HTTP_FLAGS } from './client/api.js';
import { reportFailure } from './client/errors.js';
import { parseFlags, type FlagSpec } from './client/flags.js';
import { formatOf, OUTPUT_FLAGS } from './client/output.js';
import type { ClientCommandSpec } from './client/spec.js';

const HELP_FLAGS: FlagSpec = { h: 'bool', help: 'bool' };

/** Makes a {@link Command} of `spec`. */
export function clientCommand(spec: ClientCommandSpec): Command {
  const flagSpec: FlagSpec = {
    ...HTTP_FLAGS,
    ...(spec.prints === false ? { format: 'string' } : OUTPUT_FLAGS),
    ...HELP_FLAGS,
    ...spec.flags,
  };
  return {
    summary: spec.summary,
    usage: spec.usage,
    async run(argv, io) {
      try {
        const { flags, args } = parseFlags(argv, flagSpec);
        if (flags.h || flags.help) {
          io.stdout.write(`${spec.usage}\n`);
          return 0;
        }
        formatOf(flags);
        return await spec.run({ flags, args, io, client: await clientFrom(io.env, flags) });
      } catch (error) {
        return reportFailure(error, io.stderr, spec.usage);
      }
    },
  };
}
