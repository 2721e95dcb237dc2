// `strongroom policy write|read|list|delete`: named ACL policies (sys/policies/acl/...).
import { readFile } from 'node:fs/promises';
import type { Command } from './command/command.js';
import { clientCommand } from './client-command.js';
import { LocalError, ServerError } from './client/errors.js';
import { expectArgs } from './client/flags.js';
import { formatValue, show } from './client/output.js';
import { commandGroup } from './group.js';

const COMMON = 'Options: -address=URL, -ca-cert=FILE.';
const policyPath = (name: string) => `sys/policies/acl/${encodeURIComponent(name)}`;

async function readPolicy(source: string, stdin: NodeJS.ReadableStream): Promise<string> {
  if (source !== '-') {
    try {
      return await readFile(source, 'utf8');
    } catch (error) {
      throw new LocalError(`cannot read the policy file ${source}: ${(error as Error).message}`);
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const write = clientCommand({
  summary: 'uploads a policy (HCL or JSON) from a file or stdin',
  usage: `usage: strongroom policy write [options] NAME FILE | -

Stores the policy in FILE (or stdin, with -) under NAME, replacing any policy of that name. ${COMMON}`,
  prints: false,
  async run({ args, client, io }) {
    expectArgs(args, 2);
    const policy = await readPolicy(args[1]!, io.stdin);
    await client.request('PUT', policyPath(args[0]!), { body: { policy } });
    io.stdout.write(`Success! Uploaded policy: ${args[0]!}\n`);
    return 0;
  },
});

const read = clientCommand({
  summary: "prints a policy's text",
  usage: `usage: strongroom policy read [options] NAME

Prints the policy NAME as it was written. ${COMMON} -format=table|json, -field=NAME.`,
  async run({ flags, args, client, io }) {
    expectArgs(args, 1);
    const answer = await client.request('GET', policyPath(args[0]!), { accept: [404] });
    const data = answer.json.data;
    if (answer.status === 404 || !data) throw new ServerError(`No policy named: ${args[0]!}`, 404);
    return show(io.stdout, flags, { answer: answer.json, table: () => formatValue(data.policy), fields: () => data });
  },
});

const list = clientCommand({
  summary: 'lists the policies',
  usage: `usage: strongroom policy list [options]

Prints the names of the policies, one a line. ${COMMON} -format=table|json.`,
  async run({ flags, args, client, io }) {
    expectArgs(args, 0);
    const answer = await client.request('GET', 'sys/policies/acl', { query: { list: 'true' } });
    const keys = (answer.json.data?.keys ?? []) as string[];
    return show(io.stdout, flags, { answer: answer.json, table: () => keys.join('\n'), fields: () => ({ keys }) });
  },
});

const remove = clientCommand({
  summary: 'deletes a policy',
  usage: `usage: strongroom policy delete [options] NAME

Deletes the policy NAME; tokens that name it keep the name, which then grants nothing. ${COMMON}`,
  prints: false,
  async run({ args, client, io }) {
    expectArgs(args, 1);
    await client.request('DELETE', policyPath(args[0]!));
    io.stdout.write(`Success! Deleted policy: ${args[0]!}\n`);
    return 0;
  },
});

/** `strongroom policy`. */
export const policyCommand: Command = commandGroup(
  'strongroom policy',
  'writes, reads, lists and deletes ACL policies',
  {
    write,
    read,
    list,
    delete: remove,
  },
);
