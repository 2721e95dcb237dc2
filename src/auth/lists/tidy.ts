import { z } from 'zod';
import { duration } from '../../core/framework/fields.js';
import { unchanged } from '../../core/store/stored-json.js';
import { parseTimestamp } from '../../lib/time.js';
import { DEFAULT_SAFETY_BUFFER, readTidyConfig, TIDY_KINDS, type TidyKind } from '../config/tidy-config.js';
import type { AuthContext } from '../context/auth-context.js';
import type { DocumentFolder } from '../context/stored-document.js';
import { accessListDocuments } from './accesslist.js';
import { denyListDocuments } from './denylist.js';

/** Periodic tidy runs at most this often (seconds). */
export const PERIODIC_TIDY_INTERVAL = 3600;

const TIDIED: Record<TidyKind, DocumentFolder<{ expiration_time: string }>> = {
  'identity-accesslist': accessListDocuments,
  'roletag-denylist': denyListDocuments,
};

export const tidyFields = z.object({
  safety_buffer: duration().optional().meta({
    description: 'How long past its expiration an entry is kept.',
    default: DEFAULT_SAFETY_BUFFER,
  }),
});

function jobName(kind: TidyKind): string {
  return `tidy/${kind}`;
}

/**
 * Removes the entries of one list whose expiration_time plus `safetyBuffer` seconds has passed; answers how many. An
 * entry whose expiration cannot be read is kept. Every entry is tried; the first failure is rethrown at the end.
 */
export async function tidyList(context: AuthContext, kind: TidyKind, safetyBuffer: number): Promise<number> {
  const folder = TIDIED[kind];
  const cutoff = context.now().getTime() - safetyBuffer * 1000;
  let removed = 0;
  let failure: unknown;
  for (const name of await context.list(folder)) {
    try {
      const result = await context.update(folder.named(name), (entry) => {
        const expiration = entry === undefined ? undefined : parseTimestamp(entry.expiration_time);
        return expiration !== undefined && expiration.getTime() < cutoff ? undefined : unchanged;
      });
      if (result.written) removed += 1;
    } catch (error) {
      failure ??= error;
    }
  }
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the first caught error as it was thrown
  if (failure !== undefined) throw failure;
  return removed;
}

/**
 * Starts a manual tidy in the background; answers false when a tidy of that list is already running. A failure is
 * handed to `onFailure`, since the request that started the job has long been answered.
 */
export function startTidy(
  context: AuthContext,
  kind: TidyKind,
  safetyBuffer: number,
  onFailure: (error: unknown) => void,
): boolean {
  const job = context.jobs.start(jobName(kind), async () => {
    await tidyList(context, kind, safetyBuffer);
  });
  job?.catch(onFailure);
  return job !== undefined;
}

/** Periodic tidy of both lists: at most once per interval, each per its config/tidy settings. */
export class PeriodicTidy {
  private nextRun: number | undefined;

  constructor(private readonly context: AuthContext) {}

  async run(): Promise<void> {
    const now = this.context.now().getTime();
    if (this.nextRun !== undefined && now < this.nextRun) return;
    this.nextRun = now + PERIODIC_TIDY_INTERVAL * 1000;
    const results = await Promise.allSettled(TIDY_KINDS.map((kind) => this.runOne(kind)));
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async runOne(kind: TidyKind): Promise<void> {
    const config = await readTidyConfig(this.context, kind);
    if (config?.disable_periodic_tidy) return;
    const safetyBuffer = config?.safety_buffer ?? DEFAULT_SAFETY_BUFFER;
    // A manual tidy of the same list already running does the same work.
    await this.context.jobs.start(jobName(kind), async () => {
      await tidyList(this.context, kind, safetyBuffer);
    });
  }
}
