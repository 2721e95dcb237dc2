// `strongroom operator`: managing a running server's keys; each subcommand is a file in operator/.
import type { Command } from './command.js';
import { clientCommand } from './client-command.js';
import { commandGroup } from './group.js';
import { keyStatusSpec } from './operator/key-status.js';
import { rotateSpec } from './operator/rotate.js';

/** `strongroom operator`. */
export const operatorCommand: Command = commandGroup('strongroom operator', "manages a running server's keys", {
  rotate: clientCommand(rotateSpec),
  'key-status': clientCommand(keyStatusSpec),
});
