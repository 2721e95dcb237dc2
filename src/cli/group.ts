// A command made of commands (`strongroom kv put`, `strongroom operator rotate`): its first argument names one of its
// table, and its usage lists them.
import type { Command } from './command/command.js';

/** The words that ask for usage rather than run anything. */
export const HELP_WORDS: ReadonlySet<string> = new Set(['help', '--help', '-h', '-help']);

function listing(prefix: string, table: Readonly<Record<string, Command>>): string {
  const width = Math.max(...Object.keys(table).map((name) => name.length)) + 4;
  return Object.entries(table)
    .map(([name, command]) => `    ${name.padEnd(width)}${command.summary}`)
    .join('\n');
}

/** A group named `prefix` (`strongroom kv`) over `table`. */
export function commandGroup(prefix: string, summary: string, table: Readonly<Record<string, Command>>): Command {
  const usage = `usage: ${prefix} <subcommand> [options] [args]\n\n${summary.charAt(0).toUpperCase()}${summary.slice(1)}.\n\nSubcommands:\n${listing(prefix, table)}\n\n"strongroom help ${prefix.replace(/^strongroom /, '')} <subcommand>" says more.`;
  return {
    summary,
    usage,
    subcommands: table,
    async run(args, io) {
      const [name, ...rest] = args;
      if (name === undefined || HELP_WORDS.has(name)) {
        (name === undefined ? io.stderr : io.stdout).write(`${usage}\n`);
        return name === undefined ? 1 : 0;
      }
      const command = Object.hasOwn(table, name) ? table[name] : undefined;
      if (!command) {
        io.stderr.write(`${prefix}: unknown subcommand ${JSON.stringify(name)}\n\n${usage}\n`);
        return 1;
      }
      return command.run(rest, io);
    },
  };
}
