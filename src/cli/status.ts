// `strongroom status`: whether the server answers, and what it is, from sys/seal-status (no token needed).
import type { Command } from './command/command.js';
import { clientCommand } from './client-command.js';
import { expectArgs } from './client/flags.js';
import { show, table } from './client/output.js';

/** `strongroom status`: Vault's status table; exit 2 when the server cannot be reached. */
export const statusCommand: Command = clientCommand({
  summary: 'prints whether the server is up, and its version',
  usage: `usage: strongroom status [options]

Asks the server for its status (no token needed): exit 0 when it answers, 2 when it cannot be reached.
Options: -address=URL, -ca-cert=FILE, -format=table|json.`,
  async run({ flags, args, client, io }) {
    expectArgs(args, 0);
    const answer = await client.request('GET', 'sys/seal-status');
    const status = answer.json as Record<string, unknown>;
    const rows = [
      ['Seal Type', status.type],
      ['Initialized', status.initialized],
      ['Sealed', status.sealed],
      ['Total Shares', status.n],
      ['Threshold', status.t],
      ['Version', status.version],
      ['Storage Type', status.storage_type],
      ['HA Enabled', false],
    ];
    return show(io.stdout, flags, { answer: status, table: () => table(rows), fields: () => status });
  },
});
