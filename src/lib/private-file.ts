import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Creates `path` for its owner alone (mode 0600), with its missing folders (mode 0700), and answers it open for
 * writing; undefined when the file exists already, whose mode then stays what its operator chose. For files that hold
 * secrets: created with the umask's mode, they are often readable by every local user.
 */
export async function createPrivateFile(path: string): Promise<FileHandle | undefined> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  try {
    return await open(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
}
