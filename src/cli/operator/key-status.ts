// `strongroom operator key-status`: the data key in use (sys/key-status), as `vault operator key-status` prints it.
import type { ApiClient } from '../client/api.js';
import { expectArgs } from '../client/flags.js';
import { columns, show } from '../client/output.js';
import type { ClientCommandSpec, CommandIo } from '../client/spec.js';

/** Reads sys/key-status and prints it as the flags ask: Vault's rows, or the answer, or one field. */
export async function printKeyStatus(
  client: ApiClient,
  io: CommandIo,
  flags: Readonly<Record<string, unknown>>,
): Promise<0> {
  const answer = await client.request('GET', 'sys/key-status');
  // Vault answers the fields both at the top level and under `data`.
  const status = answer.json.data ?? answer.json;
  const rows = [
    ['Key Term', status.term],
    ['Install Time', status.install_time],
    ...(status.encryptions === undefined ? [] : [['Encryption Count', status.encryptions]]),
  ];
  return show(io.stdout, flags, { answer: answer.json, table: () => columns(rows), fields: () => status });
}

/** `strongroom operator key-status`. */
export const keyStatusSpec: ClientCommandSpec = {
  summary: 'prints the data key term in use and when it was installed',
  usage: `usage: strongroom operator key-status [options]

Prints the term of the data key new writes are encrypted with, when it was installed, and how many encryptions it
made where the server counts them. Needs a token with read on sys/key-status.
Options: -address=URL, -ca-cert=FILE, -format=table|json, -field=term|install_time|encryptions.`,
  async run({ flags, args, client, io }) {
    expectArgs(args, 0);
    return printKeyStatus(client, io, flags);
  },
};
