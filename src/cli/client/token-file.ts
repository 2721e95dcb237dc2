// Where `strongroom login` keeps the token for later commands: $HOME/.strongroom-token, mode 0600, as Vault's token
// helper keeps ~/.vault-token. Written to a temporary file then renamed, so a reader never sees half a token.
import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { LocalError } from './errors.js';

/** The token file's path: under HOME (the environment's, so a test or a service account can move it). */
export function tokenFilePath(env: NodeJS.ProcessEnv): string {
  return join(env.HOME || homedir(), '.strongroom-token');
}

/** The stored token; undefined when there is no file. */
export async function readTokenFile(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    return (await readFile(tokenFilePath(env), 'utf8')).trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new LocalError(`cannot read the token file ${tokenFilePath(env)}: ${(error as Error).message}`);
  }
}

/** Stores `token` for later commands, readable by this user alone. */
export async function writeTokenFile(env: NodeJS.ProcessEnv, token: string): Promise<string> {
  const path = tokenFilePath(env);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, token, { mode: 0o600 });
    // The mode given to writeFile is narrowed by the umask only; chmod makes it exact whatever an older file had.
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new LocalError(`cannot write the token file ${path}: ${(error as Error).message}`);
  }
  return path;
}
