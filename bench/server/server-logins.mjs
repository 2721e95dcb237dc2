// ec2 and iam logins end to end against the real server (`POST /v1/auth/aws/login`), its auth method configured over
// its HTTP API as an operator would, with strongroom/testing's fake AWS as the cloud in a process of its own. No floor:
// nothing simpler does a login's work, so these rows are information (requests per second, p50 and p99).
import { buildIamLoginBody } from 'strongroom/aws';
import { spread } from '../harness/harness.mjs';
import { admin, benchChild, load, stopAll, warmUp } from './server-processes.mjs';

/** Many instances, each logging in with its own nonce, so that no two logins in flight are one instance's. */
const INSTANCES = 64;
/** iam login bodies signed in advance, as many clients each signing its own would send. */
const IAM_BODIES = 8;
const LOGIN = '/v1/auth/aws/login';

/** Cycles through `bodies`, one login request each. */
function logins(bodies) {
  let next = 0;
  return () => ({ method: 'POST', path: LOGIN, body: bodies[next++ % bodies.length] });
}

async function expectLogin(url, body) {
  const answer = await fetch(`${url}${LOGIN}`, { method: 'POST', body });
  const text = await answer.text();
  if (answer.status !== 200 || !JSON.parse(text).auth?.client_token)
    throw new Error(`login refused during setup: ${answer.status} ${text}`);
}

/**
 * The fake AWS started and the server's auth method pointed at it; answers the login bodies of each kind for each
 * number of clients. Each number of clients logs in to roles of its own (with instances of its own for ec2, whose
 * access list ties an instance to one role): a role may hold at most 10,000 live tokens (maxTokensPerRole), which
 * one role's logins at every number of clients would pass.
 */
async function configure(real, aws, clients) {
  // instance_cache_seconds: without it every ec2 login describes its instance, and the provider's own pace for AWS
  // calls (10 per second per account and region) would be the figure measured, not the server.
  await admin(real.url, 'POST', 'auth/aws/config/client', {
    access_key: aws.operatorKey.accessKeyId,
    secret_key: aws.operatorKey.secretAccessKey,
    endpoint: aws.url,
    iam_endpoint: aws.url,
    sts_endpoint: aws.url,
    instance_cache_seconds: 60,
  });
  await admin(real.url, 'POST', 'auth/aws/config/certificate/bench-ca', {
    aws_public_cert: aws.certificatePem,
    type: 'pkcs7',
  });
  const bodies = { ec2: new Map(), iam: new Map() };
  for (const [index, connections] of clients.entries()) {
    const [ec2Role, iamRole] = [`bench-ec2-${connections}`, `bench-iam-${connections}`];
    await admin(real.url, 'POST', `auth/aws/role/${ec2Role}`, { auth_type: 'ec2', bound_ami_id: aws.ami });
    await admin(real.url, 'POST', `auth/aws/role/${iamRole}`, {
      auth_type: 'iam',
      bound_iam_principal_arn: aws.clientArn,
    });
    // Each instance's first login registers the nonce it re-authenticates with, as a real client's does.
    const ec2 = aws.documents
      .slice(index * INSTANCES, (index + 1) * INSTANCES)
      .map((pkcs7, n) => JSON.stringify({ role: ec2Role, pkcs7, nonce: `bench-nonce-${index}-${n}` }));
    for (const body of ec2) await expectLogin(real.url, body);
    const iam = Array.from({ length: IAM_BODIES }, () =>
      JSON.stringify(buildIamLoginBody({ credentials: aws.clientKey, role: iamRole })),
    );
    await expectLogin(real.url, iam[0]);
    bodies.ec2.set(connections, ec2);
    bodies.iam.set(connections, iam);
  }
  return bodies;
}

/** The login rows at each number of clients, `rounds` runs of `seconds` each. */
export async function loginRows(real, { clients, rounds, seconds }, log) {
  const fake = await benchChild('server-fake-aws.mjs', [String(INSTANCES * clients.length)], JSON.parse);
  try {
    const bodies = await configure(real, fake.found, clients);
    const rows = [];
    for (const [kind, detail] of [
      ['ec2', `fake EC2, ${INSTANCES} instances, instance cache on`],
      ['iam', 'fake STS, signed GetCallerIdentity'],
    ]) {
      for (const connections of clients) {
        const next = logins(bodies[kind].get(connections));
        await warmUp(real, { next });
        log(`server load: ${kind} login, ${connections} client(s), ${rounds} rounds of ${seconds} s`);
        const runs = [];
        for (let round = 0; round < rounds; round++) runs.push(await load(real.url, { connections, seconds, next }));
        rows.push(loginRow(kind, detail, connections, runs));
      }
    }
    return rows;
  } finally {
    await stopAll([fake.child]);
  }
}

function loginRow(kind, detail, connections, runs) {
  const rates = spread(runs.map((run) => run.rps));
  const last = runs.at(-1);
  return {
    section: 'server',
    name: `Server ${kind} login, ${connections} client${connections > 1 ? 's' : ''} (${detail}; no floor)`,
    unit: 'req/s',
    result: { subject: rates },
    measuredText: `${Math.round(rates.median).toLocaleString('en-US')} req/s, p50 ${last.p50} ms, p99 ${last.p99} ms`,
    goal: { kind: 'info' },
  };
}
