// `strongroom kv put|patch|get|list` and the group that holds them with the version commands and `kv metadata`.
import type { Command } from './command/command.js';
import { clientCommand } from './client-command.js';
import type { ClientContext } from './client/spec.js';
import { ServerError, UsageError } from './client/errors.js';
import { expectArgs } from './client/flags.js';
import { keyValues } from './client/key-values.js';
import { kvPath, MOUNT_FLAG, shownPath } from './client/kv-paths.js';
import type { JsonObject } from './client/api.js';
import { formatValue, show, titledPath, titledTable } from './client/output.js';
import { commandGroup } from './group.js';
import { kvMetadataCommand } from './kv-metadata.js';
import { kvDeleteCommand, kvDestroyCommand, kvUndeleteCommand } from './kv-versions.js';

const COMMON = `Options: -mount=NAME (default secret), -address=URL, -ca-cert=FILE, -format=table|json, -field=NAME.`;

/** `== Secret Path ==` and the path, then each titled table. */
function sections(path: string, parts: readonly [string, Record<string, unknown> | null | undefined][]): string {
  const tables = parts.map(([title, data]) => titledTable(title, data));
  return [titledPath('Secret Path', shownPath(path)), ...tables].join('\n\n');
}

async function write(context: ClientContext, method: 'POST' | 'PATCH'): Promise<0> {
  const { flags, args, client, io } = context;
  if (args.length < 1) throw new UsageError(`Not enough arguments (expected >1, got ${args.length})`);
  if (args.length === 1) throw new UsageError('Must supply data');
  const data = await keyValues(args.slice(1), io.stdin);
  const path = kvPath(flags, 'data', args[0]!);
  const options = flags.cas === undefined ? {} : { cas: flags.cas };
  const answer = await client.request(method, path, {
    body: { data, options },
    ...(method === 'PATCH' ? { contentType: 'application/merge-patch+json' } : {}),
  });
  const metadata = answer.json.data;
  return show(io.stdout, flags, {
    answer: answer.json,
    table: () => sections(path, [['Metadata', metadata]]),
    fields: () => metadata ?? {},
  });
}

const put = clientCommand({
  summary: 'writes a new version of a secret',
  usage: `usage: strongroom kv put [options] PATH KEY=VALUE... | @FILE | -

Writes the data as a new version of the secret at PATH. KEY=@FILE takes a value from a file, KEY=- from stdin; @FILE
alone or - alone takes the whole data as a JSON object. -cas=N writes only if the current version is N (0: only if
the secret does not exist). ${COMMON}`,
  flags: { ...MOUNT_FLAG, cas: 'int' },
  run: (context) => write(context, 'POST'),
});

const patch = clientCommand({
  summary: 'changes some keys of the latest version, keeping the others',
  usage: `usage: strongroom kv patch [options] PATH KEY=VALUE... | @FILE | -

Writes a new version of the secret at PATH: the latest version's data with these keys changed (a JSON merge patch:
a null value in JSON input removes a key). -cas=N as for put. ${COMMON}`,
  flags: { ...MOUNT_FLAG, cas: 'int' },
  run: (context) => write(context, 'PATCH'),
});

const get = clientCommand({
  summary: "reads a secret's latest version, or -version=N",
  usage: `usage: strongroom kv get [options] PATH

Prints the secret at PATH: its metadata and its data. -version=N reads that version. -field=KEY prints one key's
value alone. ${COMMON}`,
  flags: { ...MOUNT_FLAG, version: 'int' },
  async run({ flags, args, client, io }) {
    expectArgs(args, 1);
    const path = kvPath(flags, 'data', args[0]!);
    const query = flags.version === undefined ? undefined : { version: String(flags.version) };
    const answer = await client.request('GET', path, { accept: [404], ...(query ? { query } : {}) });
    const found = answer.json.data as { data?: JsonObject; metadata?: JsonObject } | undefined;
    if (answer.status === 404 || !found?.data) {
      const deleted = found?.metadata?.deletion_time;
      const why = deleted
        ? ` (version ${formatValue(found.metadata?.version)} was deleted at ${formatValue(deleted)})`
        : '';
      throw new ServerError(`No value found at ${shownPath(path)}${why}`, 404);
    }
    return show(io.stdout, flags, {
      answer: answer.json,
      table: () =>
        sections(path, [
          ['Metadata', found.metadata],
          ['Data', found.data],
        ]),
      fields: () => found.data ?? {},
    });
  },
});

const list = clientCommand({
  summary: 'lists the secrets and folders under a path',
  usage: `usage: strongroom kv list [options] [PATH]

Lists the names under PATH (the mount's top by default); folders end in "/". ${COMMON}`,
  flags: MOUNT_FLAG,
  async run({ flags, args, client, io }) {
    expectArgs(args, 0, 1);
    const path = kvPath(flags, 'metadata', args[0] ?? '');
    const answer = await client.request('GET', path, { query: { list: 'true' }, accept: [404] });
    const keys = answer.json.data?.keys as string[] | undefined;
    if (answer.status === 404 || !keys) throw new ServerError(`No value found at ${shownPath(path)}`, 404);
    return show(io.stdout, flags, {
      answer: answer.json,
      table: () => ['Keys', '----', ...keys].join('\n'),
      fields: () => ({ keys }),
    });
  },
});

/** `strongroom kv`: the KV v2 engine's commands. */
export const kvCommand: Command = commandGroup('strongroom kv', 'reads and writes secrets in the KV v2 engine', {
  put,
  get,
  patch,
  delete: kvDeleteCommand,
  undelete: kvUndeleteCommand,
  destroy: kvDestroyCommand,
  list,
  metadata: kvMetadataCommand,
});
