/**
 * `credential_process`: runs the profile's command through the shell, as the AWS CLI does, and reads the JSON it prints
 * (Version 1). Its output is never echoed in errors: it holds the secret.
 */
import { spawn } from 'node:child_process';
import { z } from 'zod';
import { CloudUnavailable } from '../../../lib/errors.js';
import type { Environment } from './credential-source.js';
import type { AwsCredentials } from '../api/signing.js';

const maxOutputBytes = 64 * 1024;

const processOutput = z.object({
  Version: z.literal(1),
  AccessKeyId: z.string().min(1),
  SecretAccessKey: z.string().min(1),
  SessionToken: z.string().min(1).optional(),
  Expiration: z.iso.datetime({ offset: true }).optional(),
});

function run(command: string, env: Environment, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, env: env, stdio: ['ignore', 'pipe', 'ignore'], timeout: timeoutMs });
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxOutputBytes) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.on('error', (error) => reject(new CloudUnavailable(`could not start: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(Buffer.concat(chunks).toString('utf8'));
      const why =
        size > maxOutputBytes ? 'printed too much' : signal ? `was killed (${signal})` : `exited with code ${code}`;
      reject(new CloudUnavailable(why));
    });
  });
}

export async function processCredentials(
  command: string,
  env: Environment,
  timeoutMs: number,
): Promise<AwsCredentials> {
  const output = await run(command, env, timeoutMs);
  let parsed: z.infer<typeof processOutput>;
  try {
    parsed = processOutput.parse(JSON.parse(output));
  } catch {
    throw new CloudUnavailable('printed no valid Version 1 credentials JSON');
  }
  return {
    accessKeyId: parsed.AccessKeyId,
    secretAccessKey: parsed.SecretAccessKey,
    ...(parsed.SessionToken && { sessionToken: parsed.SessionToken }),
    ...(parsed.Expiration && { expiresAt: new Date(parsed.Expiration) }),
  };
}
