// `strongroom operator <name>`: the operator's commands, one file each in operator/, found in one table.
import type { Command } from './command/command.js';
import { backupCommand } from './operator/backup.js';
import { rekeyCommand } from './operator/rekey.js';
import { restoreCommand } from './operator/restore.js';
import { rewrapCommand } from './operator/rewrap.js';

const SUBCOMMANDS: Readonly<Record<string, Command>> = {
  rewrap: rewrapCommand,
  rekey: rekeyCommand,
  backup: backupCommand,
  restore: restoreCommand,
};

const HELP = new Set(['help', '--help', '-h', '-help']);

function overview(): string {
  const rows = Object.entries(SUBCOMMANDS).map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`);
  return `usage: strongroom operator <subcommand> [args]\n\nsubcommands:\n${rows.join('\n')}`;
}

export const operatorCommand: Command = {
  summary: 'manage keys, back up and restore the storage',
  get usage() {
    return overview();
  },
  async run(args, io) {
    const [name, ...rest] = args;
    if (name !== undefined && HELP.has(name)) {
      io.stdout.write(`${overview()}\n`);
      return 0;
    }
    const command = name !== undefined && Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
    if (!command) {
      const what = name === undefined ? 'a subcommand is needed' : `unknown subcommand ${JSON.stringify(name)}`;
      io.stderr.write(`strongroom operator: ${what}\n\n${overview()}\n`);
      return 1;
    }
    if (rest.some((arg) => HELP.has(arg))) {
      io.stdout.write(`${command.usage}\n`);
      return 0;
    }
    return command.run(rest, io);
  },
};
