// The data of `kv put` and friends, in Vault's argument forms: `key=value`; `key=@file` (the file's contents) and
// `key=-` (stdin's); `@file` alone (a JSON object from a file) and `-` alone (a JSON object from stdin).
import { readFile } from 'node:fs/promises';
import { LocalError, UsageError } from './errors.js';

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function fileText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new LocalError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

function jsonObject(text: string, from: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new LocalError(`${from} is not JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new LocalError(`${from} must hold a JSON object`);
  return parsed as Record<string, unknown>;
}

/**
 * Builds the object the arguments describe; later keys win. Values keep their bytes: a file's contents or stdin's
 * are not trimmed, so a PEM block or a password with a trailing newline arrives as written.
 */
export async function keyValues(
  args: readonly string[],
  stdin: NodeJS.ReadableStream,
): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = {};
  let stdinUsed = false;
  const fromStdin = async () => {
    if (stdinUsed) throw new UsageError('stdin ("-") can be read only once');
    stdinUsed = true;
    return readAll(stdin);
  };
  for (const arg of args) {
    if (arg === '-') Object.assign(data, jsonObject(await fromStdin(), 'stdin'));
    else if (arg.startsWith('@')) Object.assign(data, jsonObject(await fileText(arg.slice(1)), arg.slice(1)));
    else {
      const equals = arg.indexOf('=');
      if (equals <= 0) throw new UsageError(`invalid key/value pair ${JSON.stringify(arg)}: format must be key=value`);
      const value = arg.slice(equals + 1);
      data[arg.slice(0, equals)] =
        value === '-' ? await fromStdin() : value.startsWith('@') ? await fileText(value.slice(1)) : value;
    }
  }
  return data;
}
