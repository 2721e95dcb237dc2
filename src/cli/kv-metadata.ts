// `strongroom kv metadata get|put|delete`: a secret's settings and version history, and erasing it whole.
import type { Command } from './command/command.js';
import { clientCommand } from './client-command.js';
import { ServerError, UsageError } from './client/errors.js';
import { expectArgs } from './client/flags.js';
import { kvPath, MOUNT_FLAG, shownPath } from './client/kv-paths.js';
import { show, titledPath, titledTable } from './client/output.js';
import { commandGroup } from './group.js';

const COMMON = 'Options: -mount=NAME (default secret), -address=URL, -ca-cert=FILE.';

const get = clientCommand({
  summary: "prints a secret's settings and its versions",
  usage: `usage: strongroom kv metadata get [options] PATH

Prints the settings of the secret at PATH and each version's times. ${COMMON} -format=table|json, -field=NAME.`,
  flags: MOUNT_FLAG,
  async run({ flags, args, client, io }) {
    expectArgs(args, 1);
    const path = kvPath(flags, 'metadata', args[0]!);
    const answer = await client.request('GET', path, { accept: [404] });
    const data = answer.json.data;
    if (answer.status === 404 || !data) throw new ServerError(`No value found at ${shownPath(path)}`, 404);
    const { versions, ...settings } = data as { versions?: Record<string, Record<string, unknown>> };
    const history = Object.entries(versions ?? {})
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([version, times]) => titledTable(`Version ${version}`, times));
    return show(io.stdout, flags, {
      answer: answer.json,
      table: () =>
        [titledPath('Metadata Path', shownPath(path)), titledTable('Metadata', settings), ...history].join('\n\n'),
      fields: () => data,
    });
  },
});

const put = clientCommand({
  summary: "changes a secret's settings",
  usage: `usage: strongroom kv metadata put [options] PATH

Sets the secret's settings: -max-versions=N, -cas-required[=false], -delete-version-after=DURATION (e.g. 720h),
-destroy-version-after=DURATION (a strongroom addition: versions older than it are destroyed),
-custom-metadata=KEY=VALUE (again for more keys). ${COMMON}`,
  flags: {
    ...MOUNT_FLAG,
    'max-versions': 'int',
    'cas-required': 'bool',
    'delete-version-after': 'string',
    'destroy-version-after': 'string',
    'custom-metadata': 'list',
  },
  prints: false,
  async run({ flags, args, client, io }) {
    expectArgs(args, 1);
    const path = kvPath(flags, 'metadata', args[0]!);
    const custom = flags['custom-metadata'] as readonly string[] | undefined;
    const body = {
      ...(flags['max-versions'] === undefined ? {} : { max_versions: flags['max-versions'] }),
      ...(flags['cas-required'] === undefined ? {} : { cas_required: flags['cas-required'] }),
      ...(flags['delete-version-after'] === undefined ? {} : { delete_version_after: flags['delete-version-after'] }),
      ...(flags['destroy-version-after'] === undefined
        ? {}
        : { destroy_version_after: flags['destroy-version-after'] }),
      ...(custom === undefined
        ? {}
        : {
            custom_metadata: Object.fromEntries(
              custom.map((pair) => {
                const equals = pair.indexOf('=');
                if (equals <= 0) throw new UsageError(`-custom-metadata takes KEY=VALUE, got ${JSON.stringify(pair)}`);
                return [pair.slice(0, equals), pair.slice(equals + 1)];
              }),
            ),
          }),
    };
    await client.request('POST', path, { body });
    io.stdout.write(`Success! Data written to: ${shownPath(path)}\n`);
    return 0;
  },
});

const remove = clientCommand({
  summary: 'erases a secret: every version and its settings',
  usage: `usage: strongroom kv metadata delete [options] PATH

Erases the secret at PATH for good: every version, its data and its settings. ${COMMON}`,
  flags: MOUNT_FLAG,
  prints: false,
  async run({ flags, args, client, io }) {
    expectArgs(args, 1);
    const path = kvPath(flags, 'metadata', args[0]!);
    await client.request('DELETE', path);
    io.stdout.write(`Success! Data deleted (if it existed) at: ${shownPath(path)}\n`);
    return 0;
  },
});

/** `strongroom kv metadata`. */
export const kvMetadataCommand: Command = commandGroup(
  'strongroom kv metadata',
  "reads and changes a secret's settings and history",
  { get, put, delete: remove },
);
