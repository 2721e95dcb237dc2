// `strongroom operator`: the operator's commands, one file each in operator/: key rotation and status over a running
// server's HTTP API, and rewrap, rekey, backup and restore on the storage itself, with the server's environment.
import type { Command } from './command/command.js';
import { clientCommand } from './client-command.js';
import { localCommand } from './local-command.js';
import { commandGroup } from './group.js';
import { backupSpec } from './operator/backup.js';
import { keyStatusSpec } from './operator/key-status.js';
import { rekeySpec } from './operator/rekey.js';
import { restoreSpec } from './operator/restore.js';
import { rewrapSpec } from './operator/rewrap.js';
import { rotateSpec } from './operator/rotate.js';

/** `strongroom operator`. */
export const operatorCommand: Command = commandGroup(
  'strongroom operator',
  'manages keys, backs up and restores the storage',
  {
    rotate: clientCommand(rotateSpec),
    'key-status': clientCommand(keyStatusSpec),
    rewrap: localCommand(rewrapSpec),
    rekey: localCommand(rekeySpec),
    backup: localCommand(backupSpec),
    restore: localCommand(restoreSpec),
  },
);
