#!/usr/bin/env node
// The `strongroom` command: finds the subcommand named by the first argument in one table and runs it.
import { type Command, type CommandIo } from './command/command.js';
import { operatorCommand } from './operator.js';
import { serveCommand } from './server.js';

const COMMANDS: Readonly<Record<string, Command>> = { server: serveCommand, operator: operatorCommand };

function overview(): string {
  const rows = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`);
  return `usage: strongroom <command> [args]\n\ncommands:\n${rows.join('\n')}\n\n"strongroom help <command>" says more.`;
}

const HELP = new Set(['help', '--help', '-h', '-help']);

async function main(args: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined) {
    io.stderr.write(`strongroom: a command is needed\n\n${overview()}\n`);
    return 1;
  }
  if (HELP.has(name)) {
    const topic = rest[0] === undefined ? undefined : COMMANDS[rest[0]];
    if (rest[0] !== undefined && !topic) {
      io.stderr.write(`strongroom: unknown command ${JSON.stringify(rest[0])}\n\n${overview()}\n`);
      return 1;
    }
    io.stdout.write(`${topic ? topic.usage : overview()}\n`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr.write(`strongroom: unknown command ${JSON.stringify(name)}\n\n${overview()}\n`);
    return 1;
  }
  // Only the word right after the command: a group of subcommands (operator) answers its subcommands' help itself.
  if (rest[0] !== undefined && HELP.has(rest[0])) {
    io.stdout.write(`${command.usage}\n`);
    return 0;
  }
  return command.run(rest, io);
}

process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});
