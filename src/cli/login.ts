// `strongroom login`: logs in (the cloud auth method's iam or ec2 login, or a token given) and stores the token in the
// token file for later commands, as `vault login` stores it with its token helper.
import { systemClock } from '../lib/clocks.js';
import { defaultRegionOf } from '../adapters/aws/credentials/credential-source.js';
import { defaultCredentials } from '../adapters/aws/credentials/default-chain.js';
import { buildEc2LoginBody, buildIamLoginBody } from '../adapters/aws/login-helpers.js';
import type { Command } from './command/command.js';
import { clientCommand } from './client-command.js';
import { ApiClient, type JsonObject } from './client/api.js';
import { LocalError, UsageError } from './client/errors.js';
import { expectArgs } from './client/flags.js';
import { keyValues } from './client/key-values.js';
import { formatValue, showAuth } from './client/output.js';
import { writeTokenFile } from './client/token-file.js';

const USAGE = `usage: strongroom login [options] [TOKEN | KEY=VALUE...]

Logs in and stores the token in $HOME/.strongroom-token (mode 0600), which later commands use when neither
STRONGROOM_TOKEN nor VAULT_TOKEN is set.

  strongroom login -method=aws role=web            iam: signs sts:GetCallerIdentity with the AWS credentials of
                                                   the environment (AWS_* or CLOUD_* keys, AWS_PROFILE, web identity,
                                                   container or instance role)
  strongroom login -method=aws type=ec2 role=web   ec2: the instance's signed identity document from IMDSv2
  strongroom login TOKEN                           checks TOKEN and stores it (-method=token, the default)

aws keys: role, type (iam or ec2), header_value (the server's iam_server_id_header_value), region (default
AWS_REGION, else us-east-1), nonce (ec2). Options: -method=aws|token, -path=MOUNT (default aws), -no-store,
-token-only, -address=URL, -ca-cert=FILE, -format=table|json, -field=NAME.`;

const AWS_KEYS = new Set(['role', 'type', 'header_value', 'region', 'nonce']);

async function awsLoginBody(settings: Record<string, unknown>, env: NodeJS.ProcessEnv): Promise<object> {
  for (const key of Object.keys(settings))
    if (!AWS_KEYS.has(key)) throw new UsageError(`unknown key ${JSON.stringify(key)} for -method=aws`);
  const text = (key: string) => (settings[key] === undefined ? undefined : formatValue(settings[key]));
  const role = text('role');
  const type = text('type') ?? 'iam';
  if (type === 'ec2') {
    const imdsEndpoint = env.AWS_EC2_METADATA_SERVICE_ENDPOINT;
    const nonce = text('nonce');
    return buildEc2LoginBody({
      ...(role === undefined ? {} : { role }),
      ...(nonce === undefined ? {} : { nonce }),
      ...(imdsEndpoint ? { imdsEndpoint } : {}),
    }).catch((error: unknown) => {
      throw new LocalError(`cannot read this instance's identity from IMDS: ${(error as Error).message}`);
    });
  }
  if (type !== 'iam') throw new UsageError(`type must be iam or ec2, got ${JSON.stringify(type)}`);
  const imds = env.AWS_EC2_METADATA_SERVICE_ENDPOINT;
  const credentials = await defaultCredentials(env, systemClock, globalThis.fetch, imds || undefined)().catch(
    (error: unknown) => {
      throw new LocalError(`no AWS credentials to log in with: ${(error as Error).message}`);
    },
  );
  const serverId = text('header_value');
  return buildIamLoginBody({
    credentials,
    region: text('region') ?? defaultRegionOf(env),
    ...(serverId === undefined ? {} : { serverId }),
    ...(role === undefined ? {} : { role }),
  });
}

/** `strongroom login`. */
export const loginCommand: Command = clientCommand({
  summary: 'logs in and stores the token for later commands',
  usage: USAGE,
  flags: { method: 'string', path: 'string', 'no-store': 'bool', 'token-only': 'bool' },
  async run({ flags, args, client, io }) {
    const method = String(flags.method ?? 'token');
    let auth: JsonObject;
    let answer: unknown;
    if (method === 'token') {
      expectArgs(args, 1);
      const given = new ApiClient(client.address, args[0], client.ca);
      const lookup = await given.request('GET', 'auth/token/lookup-self');
      const data = lookup.json.data ?? {};
      answer = lookup.json;
      auth = { ...data, client_token: args[0], lease_duration: data.ttl };
    } else if (method === 'aws') {
      const body = await awsLoginBody(await keyValues(args, io.stdin), io.env);
      const mount = String(flags.path ?? 'aws').replace(/^\/+|\/+$/g, '');
      // No token goes with a login: a stale one in the token file must not be sent to the server.
      const anonymous = new ApiClient(client.address, undefined, client.ca);
      const login = await anonymous.request('POST', `auth/${mount}/login`, { body });
      answer = login.json;
      auth = login.json.auth ?? {};
    } else throw new UsageError(`unknown method ${JSON.stringify(method)}: aws or token`);

    if (flags['token-only']) {
      io.stdout.write(String(auth.client_token));
      return 0;
    }
    if (!flags['no-store']) {
      await writeTokenFile(io.env, String(auth.client_token));
      for (const name of ['STRONGROOM_TOKEN', 'VAULT_TOKEN'])
        if (io.env[name])
          io.stderr.write(
            `WARNING! The ${name} environment variable is set! It takes precedence over the token just stored; if this is unwanted, unset it.\n`,
          );
    }
    if (!flags.field && flags.format !== 'json')
      io.stdout.write(
        flags['no-store']
          ? 'Success! You are now authenticated. The token was not stored (-no-store): pass it as STRONGROOM_TOKEN.\n\n'
          : 'Success! You are now authenticated. The token is stored in the token file; later commands use it.\n\n',
      );
    return showAuth(io.stdout, flags, answer, auth);
  },
});
