// The backup file: JSON lines. A header names the format, then one line per stored entry (its key, and its value as
// stored, base64: still sealed), then a closing line with the number of entries and the SHA-256 of every line before
// it. A file cut short has no closing line, and a damaged one fails the digest: both are refused before anything loads.
import { createHash, type Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import type { StorageEntry } from '../../ports/storage-copy.js';
import { LocalError } from '../client/errors.js';

const FORMAT = 'strongroom-backup';
const VERSION = 1;

const headerSchema = z.object({
  format: z.literal(FORMAT),
  version: z.number(),
  storage: z.string(),
  created: z.string(),
});
const entrySchema = z.object({ key: z.string(), value: z.base64() });
const closingSchema = z.object({ entries: z.number().int().nonnegative(), sha256: z.string() });

/** Writes a backup line by line, keeping the digest the closing line carries. */
export class BackupWriter {
  private readonly digest: Hash = createHash('sha256');
  private count = 0;
  private pending: string[] = [];

  constructor(private readonly file: FileHandle) {}

  async begin(storage: string, created: Date): Promise<void> {
    await this.line({ format: FORMAT, version: VERSION, storage, created: created.toISOString() });
  }

  async entry({ key, value }: StorageEntry): Promise<void> {
    this.count += 1;
    await this.line({ key, value: Buffer.from(value).toString('base64') });
  }

  /** The closing line, then everything on disk. Answers the number of entries written. */
  async finish(): Promise<number> {
    await this.flush();
    await this.file.writeFile(`${JSON.stringify({ entries: this.count, sha256: this.digest.digest('hex') })}\n`);
    await this.file.sync();
    return this.count;
  }

  private async line(content: object): Promise<void> {
    const text = `${JSON.stringify(content)}\n`;
    this.digest.update(text);
    this.pending.push(text);
    // Written in chunks: one system call per entry would make a large backup slow for nothing.
    if (this.pending.length >= 256) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    await this.file.writeFile(this.pending.join(''));
    this.pending = [];
  }
}

/** What a backup file holds: where it was taken, and its entries, checked whole. */
export interface Backup {
  storage: string;
  created: string;
  entries: StorageEntry[];
}

function refuse(path: string, why: string): never {
  throw new LocalError(`${path} ${why}; nothing was restored`);
}

function parse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** Reads and checks a whole backup; what is not one, or not all of one, is refused with the reason. */
export function readBackup(path: string, content: Buffer): Backup {
  const text = content.toString('utf8');
  const lines = text.split('\n');
  const header = headerSchema.safeParse(parse(lines[0] ?? ''));
  if (!header.success) refuse(path, 'is not a strongroom backup (it does not begin with a strongroom-backup header)');
  if (header.data.version !== VERSION)
    refuse(path, `is a backup of format version ${header.data.version}, which this version of strongroom cannot read`);
  // The last line ends with a newline, so split leaves an empty string after it.
  if (lines.length < 3 || lines[lines.length - 1] !== '') refuse(path, 'is cut short: it ends before its closing line');
  const closing = closingSchema.safeParse(parse(lines[lines.length - 2]!));
  if (!closing.success) refuse(path, 'is cut short: it ends before its closing line');
  const body = lines.slice(0, -2);
  const digest = createHash('sha256')
    .update(body.map((line) => `${line}\n`).join(''))
    .digest('hex');
  if (digest !== closing.data.sha256 || body.length - 1 !== closing.data.entries)
    refuse(path, 'is damaged: its content does not match the digest of its closing line');
  const entries = body.slice(1).map((line) => {
    const entry = entrySchema.safeParse(parse(line));
    if (!entry.success) refuse(path, 'holds a line that is not an entry');
    return { key: entry.data.key, value: new Uint8Array(Buffer.from(entry.data.value, 'base64')) };
  });
  return { storage: header.data.storage, created: header.data.created, entries };
}
