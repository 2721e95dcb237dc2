// How an operator command ends: a line on stderr and Vault's exit code. Refusals the operator can act on (a bad flag,
// a file that is not a backup, a storage that is not empty, a key that does not fit) exit 1 with their message; a
// storage that fails exits 2, as a server error does for the commands that talk to a server.
import { StorageNotEmpty, WrongRootKey } from '../../lib/errors.js';
import type { Command, CommandIo, ExitCode } from '../command/command.js';
import { parseArgs, UsageError, type ParsedArgs } from './flags.js';

/** The flags that ask for the usage, wherever they stand. */
const HELP_FLAGS: ReadonlySet<string> = new Set(['-h', '--help', '-help']);

/** A refusal the operator can act on, exit 1 (the message says what to do). */
export class OperatorRefusal extends Error {}

const isRefusal = (error: unknown) =>
  error instanceof OperatorRefusal ||
  error instanceof StorageNotEmpty ||
  error instanceof WrongRootKey ||
  error instanceof TypeError;

/** What one operator subcommand is made of; `operatorCommand` turns it into a `Command`. */
export interface OperatorCommandSpec {
  name: string;
  summary: string;
  usage: string;
  /** The flags it knows (without dashes). */
  flags: readonly string[];
  /** The positional argument it needs, said as what is missing without it (`name the file ...`); none when absent. */
  argument?: string;
  /** Does the work; what it throws becomes the message and the exit code. */
  run(args: ParsedArgs & { argument: string }, io: CommandIo): Promise<void>;
}

/** A Command that parses the spec's flags and argument, runs it, and answers Vault's exit code. */
export function operatorCommand(spec: OperatorCommandSpec): Command {
  return {
    summary: spec.summary,
    usage: spec.usage,
    run: (args, io) =>
      runOperator(spec, io, async () => {
        if (args.some((arg) => HELP_FLAGS.has(arg))) return void io.stdout.write(`${spec.usage}\n`);
        const parsed = parseArgs(args, spec.flags);
        const wanted = spec.argument === undefined ? 0 : 1;
        if (parsed.positional.length > wanted)
          throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positional[wanted])}`);
        if (parsed.positional.length < wanted) throw new UsageError(spec.argument);
        await spec.run({ ...parsed, argument: parsed.positional[0] ?? '' }, io);
      }),
  };
}

/** Runs `work`, turning what it throws into a message and an exit code. */
async function runOperator(
  { name, usage }: OperatorCommandSpec,
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
