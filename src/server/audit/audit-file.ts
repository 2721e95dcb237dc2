// One audit file, appended to in order: a line at a time, through one handle that a failed write or a rotation
// (SIGHUP) replaces by opening the path again.
import { open, type FileHandle } from 'node:fs/promises';
import { InternalError } from '../../lib/errors.js';

/** Why a file could not be opened, naming it: a configuration error at start, a 400 when a device is enabled. */
export class AuditFileUnavailable extends InternalError {}

export class AuditFile {
  #handle: Promise<FileHandle> | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  /** `mode` is given to a file this creates (an existing file keeps its own). */
  constructor(
    readonly path: string,
    private readonly mode = 0o600,
  ) {}

  /** Opens the file now, so that a path that cannot be written is reported at once. */
  async open(): Promise<void> {
    this.#handle = open(this.path, 'a', this.mode);
    try {
      await this.#handle;
    } catch (cause) {
      this.#handle = undefined;
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new AuditFileUnavailable(`the audit file ${JSON.stringify(this.path)} cannot be opened: ${reason}`, {
        cause,
      });
    }
  }

  /** Appends one line after the lines queued before it; a failure is thrown, and the next write opens the file again. */
  async append(line: string): Promise<void> {
    const written = this.#queue.then(async () => {
      this.#handle ??= open(this.path, 'a', this.mode);
      try {
        await (await this.#handle).appendFile(line);
      } catch (cause) {
        await this.#drop();
        throw cause;
      }
    });
    this.#queue = written.catch(() => undefined);
    await written;
  }

  /**
   * Opens the file again by its path, after the lines queued before: a rotation that moved the file (logrotate's
   * `create`) gets a new one, and no line is lost, doubled, or written after the move into the old file. A path that
   * cannot be opened now is reported, and tried again by the next write.
   */
  async reopen(): Promise<void> {
    const reopened = this.#queue.then(async () => {
      await this.#drop();
      await this.open();
    });
    this.#queue = reopened.catch(() => undefined);
    await reopened;
  }

  /** Closes the file once the lines queued are written. */
  async close(): Promise<void> {
    await this.#queue;
    await this.#drop();
  }

  async #drop(): Promise<void> {
    const stale = this.#handle;
    this.#handle = undefined;
    await stale?.then((handle) => handle.close()).catch(() => undefined);
  }
}
