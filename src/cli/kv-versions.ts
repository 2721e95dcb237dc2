// `strongroom kv delete|undelete|destroy`: a secret's versions hidden, brought back, or erased for good.
import { clientCommand } from './client-command.js';
import { expectArgs } from './client/flags.js';
import { kvPath, MOUNT_FLAG, shownPath, versionsOf } from './client/kv-paths.js';

const COMMON = 'Options: -mount=NAME (default secret), -address=URL, -ca-cert=FILE.';
const FLAGS = { ...MOUNT_FLAG, versions: 'string' } as const;

/** `strongroom kv delete`: the latest version, or -versions=..., marked deleted (undelete brings them back). */
export const kvDeleteCommand = clientCommand({
  summary: 'deletes the latest version of a secret, or -versions=N,M',
  usage: `usage: strongroom kv delete [options] PATH

Marks the latest version of the secret at PATH deleted, or the versions -versions=1,2 names; undelete brings them
back. ${COMMON}`,
  flags: FLAGS,
  prints: false,
  async run({ flags, args, client, io }) {
    expectArgs(args, 1);
    const versions = versionsOf(flags, false);
    const path = versions ? kvPath(flags, 'delete', args[0]!) : kvPath(flags, 'data', args[0]!);
    await (versions ? client.request('POST', path, { body: { versions } }) : client.request('DELETE', path));
    io.stdout.write(`Success! Data deleted (if it existed) at: ${shownPath(path)}\n`);
    return 0;
  },
});

/** A command that sends `-versions` to the mount's `segment` (undelete, destroy) with `method`. */
function versionsCommand(segment: string, method: 'POST' | 'PUT', summary: string, explained: string) {
  return clientCommand({
    summary,
    usage: `usage: strongroom kv ${segment} -versions=N[,M...] [options] PATH\n\n${explained} ${COMMON}`,
    flags: FLAGS,
    prints: false,
    async run({ flags, args, client, io }) {
      expectArgs(args, 1);
      const versions = versionsOf(flags, true);
      const path = kvPath(flags, segment, args[0]!);
      await client.request(method, path, { body: { versions } });
      io.stdout.write(`Success! Data written to: ${shownPath(path)}\n`);
      return 0;
    },
  });
}

/** `strongroom kv undelete -versions=...`. */
export const kvUndeleteCommand = versionsCommand(
  'undelete',
  'POST',
  'brings back deleted versions of a secret',
  'Brings back the deleted versions -versions names of the secret at PATH.',
);

/** `strongroom kv destroy -versions=...`. */
export const kvDestroyCommand = versionsCommand(
  'destroy',
  'PUT',
  'erases versions of a secret for good',
  'Erases the data of the versions -versions names of the secret at PATH; they cannot be brought back.',
);
