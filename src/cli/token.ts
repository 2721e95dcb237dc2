// `strongroom token create|lookup|renew|revoke`: the token API (auth/token/...) as Vault's `vault token` uses it.
import type { Command } from './command/command.js';
import { clientCommand } from './client-command.js';
import { UsageError } from './client/errors.js';
import { expectArgs, type FlagValue } from './client/flags.js';
import { rowsOf, show, showAuth, table } from './client/output.js';
import { commandGroup } from './group.js';

const COMMON = 'Options: -address=URL, -ca-cert=FILE, -format=table|json, -field=NAME.';

/** `-metadata=k=v` pairs as an object. */
function pairs(list: FlagValue | undefined, flag: string): Record<string, string> {
  return Object.fromEntries(
    ((list as readonly string[] | undefined) ?? []).map((pair) => {
      const equals = pair.indexOf('=');
      if (equals <= 0) throw new UsageError(`-${flag} takes KEY=VALUE, got ${JSON.stringify(pair)}`);
      return [pair.slice(0, equals), pair.slice(equals + 1)];
    }),
  );
}

const create = clientCommand({
  summary: 'makes a token, a child of the one in use unless -orphan',
  usage: `usage: strongroom token create [options]

Makes a token. -policy=NAME (again for more), -ttl=DURATION, -explicit-max-ttl=DURATION, -period=DURATION,
-renewable=false, -orphan, -no-default-policy, -display-name=NAME, -use-limit=N, -metadata=KEY=VALUE. ${COMMON}`,
  flags: {
    policy: 'list',
    ttl: 'string',
    'explicit-max-ttl': 'string',
    period: 'string',
    renewable: 'bool',
    orphan: 'bool',
    'no-default-policy': 'bool',
    'display-name': 'string',
    'use-limit': 'int',
    metadata: 'list',
  },
  async run({ flags, args, client, io }) {
    expectArgs(args, 0);
    const meta = pairs(flags.metadata, 'metadata');
    const body = {
      ...(flags.policy === undefined ? {} : { policies: flags.policy }),
      ...(flags.ttl === undefined ? {} : { ttl: flags.ttl }),
      ...(flags['explicit-max-ttl'] === undefined ? {} : { explicit_max_ttl: flags['explicit-max-ttl'] }),
      ...(flags.period === undefined ? {} : { period: flags.period }),
      ...(flags.renewable === undefined ? {} : { renewable: flags.renewable }),
      ...(flags['no-default-policy'] ? { no_default_policy: true } : {}),
      ...(flags['display-name'] === undefined ? {} : { display_name: flags['display-name'] }),
      ...(flags['use-limit'] === undefined ? {} : { num_uses: flags['use-limit'] }),
      ...(Object.keys(meta).length ? { meta } : {}),
    };
    const path = flags.orphan ? 'auth/token/create-orphan' : 'auth/token/create';
    const answer = await client.request('POST', path, { body });
    return showAuth(io.stdout, flags, answer.json, answer.json.auth);
  },
});

const lookup = clientCommand({
  summary: "prints a token's properties (the one in use by default)",
  usage: `usage: strongroom token lookup [options] [TOKEN | -accessor ACCESSOR]

Prints the properties of TOKEN, of the token with -accessor, or of the token in use. ${COMMON}`,
  flags: { accessor: 'bool' },
  async run({ flags, args, client, io }) {
    expectArgs(args, flags.accessor ? 1 : 0, 1);
    const answer = flags.accessor
      ? await client.request('POST', 'auth/token/lookup-accessor', { body: { accessor: args[0] } })
      : args[0] === undefined
        ? await client.request('GET', 'auth/token/lookup-self')
        : await client.request('POST', 'auth/token/lookup', { body: { token: args[0] } });
    const data = answer.json.data ?? {};
    return show(io.stdout, flags, { answer: answer.json, table: () => table(rowsOf(data)), fields: () => data });
  },
});

const renew = clientCommand({
  summary: "extends a token's lease (the one in use by default)",
  usage: `usage: strongroom token renew [options] [TOKEN]

Renews TOKEN, or the token in use; -increment=DURATION asks for that long from now. ${COMMON}`,
  flags: { increment: 'string' },
  async run({ flags, args, client, io }) {
    expectArgs(args, 0, 1);
    const increment = flags.increment === undefined ? {} : { increment: flags.increment };
    const answer =
      args[0] === undefined
        ? await client.request('POST', 'auth/token/renew-self', { body: increment })
        : await client.request('POST', 'auth/token/renew', { body: { token: args[0], ...increment } });
    return showAuth(io.stdout, flags, answer.json, answer.json.auth);
  },
});

const revoke = clientCommand({
  summary: 'ends a token and every token made under it',
  usage: `usage: strongroom token revoke [options] [TOKEN | -accessor ACCESSOR | -self]

Revokes TOKEN (or the token with -accessor, or with -self the token in use) and every token created under it.
Options: -address=URL, -ca-cert=FILE.`,
  flags: { accessor: 'bool', self: 'bool' },
  prints: false,
  async run({ flags, args, client, io }) {
    if (flags.self) {
      expectArgs(args, 0);
      await client.request('POST', 'auth/token/revoke-self');
    } else {
      expectArgs(args, 1);
      await (flags.accessor
        ? client.request('POST', 'auth/token/revoke-accessor', { body: { accessor: args[0] } })
        : client.request('POST', 'auth/token/revoke', { body: { token: args[0] } }));
    }
    io.stdout.write('Success! Revoked token (if it existed)\n');
    return 0;
  },
});

/** `strongroom token`. */
export const tokenCommand: Command = commandGroup('strongroom token', 'makes, inspects, renews and revokes tokens', {
  create,
  lookup,
  renew,
  revoke,
});
