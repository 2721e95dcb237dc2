// `strongroom operator rotate`: a new data-key term (sys/rotate); new writes use it, older values stay readable.
import { expectArgs } from '../client/flags.js';
import { formatOf } from '../client/output.js';
import type { ClientCommandSpec } from '../client/spec.js';
import { printKeyStatus } from './key-status.js';

/** `strongroom operator rotate`. */
export const rotateSpec: ClientCommandSpec = {
  summary: 'starts a new data-key term for new writes',
  usage: `usage: strongroom operator rotate [options]

Adds a new data key to the keyring: new writes are encrypted with it, values written before stay readable under their
own term ("operator rewrap" re-encrypts them). Prints the new key status. Needs a token with sudo on sys/rotate.
Options: -address=URL, -ca-cert=FILE, -format=table|json.`,
  async run({ flags, args, client, io }) {
    expectArgs(args, 0);
    await client.request('POST', 'sys/rotate');
    if (formatOf(flags) === 'table' && flags.field === undefined) io.stdout.write('Success! Rotated key\n\n');
    return printKeyStatus(client, io, flags);
  },
};
