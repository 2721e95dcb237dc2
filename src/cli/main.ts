#!/usr/bin/env node
// The `strongroom` command: finds the subcommand named by the first argument in one table and runs it.
import { SERVER_VERSION } from '../server/routes/version.js';
import { type Command, type CommandIo } from './command/command.js';
import { HELP_WORDS } from './group.js';
import { kvCommand } from './kv.js';
import { loginCommand } from './login.js';
import { operatorCommand } from './operator.js';
import { policyCommand } from './policy.js';
import { serveCommand } from './server.js';
import { statusCommand } from './status.js';
import { tokenCommand } from './token.js';

const COMMANDS: Readonly<Record<string, Command>> = {
  server: serveCommand,
  status: statusCommand,
  login: loginCommand,
  kv: kvCommand,
  token: tokenCommand,
  policy: policyCommand,
  operator: operatorCommand,
};

const VERSION_WORDS = new Set(['version', '--version', '-version', '-v']);

function overview(): string {
  const rows = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`);
  return `usage: strongroom <command> [args]

commands:
${rows.join('\n')}

Client commands reach the server at STRONGROOM_ADDR (else VAULT_ADDR, else http://127.0.0.1:8200) with the token in
STRONGROOM_TOKEN (else VAULT_TOKEN, else the file "strongroom login" stored). "strongroom help <command>" says more.`;
}

/** The command a path of names leads to (`kv metadata get`), or undefined. */
function find(names: readonly string[]): Command | undefined {
  let table: Readonly<Record<string, Command>> | undefined = COMMANDS;
  let command: Command | undefined;
  for (const name of names) {
    command = table && Object.hasOwn(table, name) ? table[name] : undefined;
    if (!command) return undefined;
    table = command.subcommands;
  }
  return command;
}

async function main(args: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined) {
    io.stderr.write(`strongroom: a command is needed\n\n${overview()}\n`);
    return 1;
  }
  if (VERSION_WORDS.has(name)) {
    io.stdout.write(`strongroom v${SERVER_VERSION}\n`);
    return 0;
  }
  if (HELP_WORDS.has(name)) {
    const topic = rest.length === 0 ? undefined : find(rest);
    if (rest.length > 0 && !topic) {
      io.stderr.write(`strongroom: unknown command ${JSON.stringify(rest.join(' '))}\n\n${overview()}\n`);
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
  // The server takes no arguments, so any help word asks for its usage; the others look at their own flags.
  if (command === serveCommand && rest.some((arg) => HELP_WORDS.has(arg))) {
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
