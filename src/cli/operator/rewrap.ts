// `strongroom operator rewrap`: re-seals every value under the newest key term, then retires the older terms, while
// every process sharing the storage keeps serving. Progress is stored after each batch, so a rewrap that is stopped
// (a kill, a reboot) continues where it was when run again.
import { UsageError } from '../client/errors.js';
import type { LocalCommandSpec } from '../command/local-spec.js';
import { openEncryptedData } from './encrypted-data.js';

const USAGE = `usage: strongroom operator rewrap [-batch-size=100]

Re-seals every stored value under the active key term (the newest, after "strongroom operator rotate" or
POST /v1/sys/rotate), then retires the older terms. Runs against the server's storage and root key (the server's
environment: STRONGROOM_STORAGE_URL or STRONGROOM_DATA_DIR, STRONGROOM_ROOT_KEY), online. Stopped, it resumes after
the last finished batch when run again.
  -batch-size=N  keys re-sealed at a time (default 100)`;

/** Batches between two progress lines. */
const BATCHES_PER_LINE = 10;

/** `strongroom operator rewrap`. */
export const rewrapSpec: LocalCommandSpec = {
  name: 'operator rewrap',
  summary: 're-seal every value under the newest key term',
  usage: USAGE,
  flags: { 'batch-size': 'int' },
  async run({ flags, io }) {
    const batchSize = (flags['batch-size'] as number | undefined) ?? 100;
    if (batchSize < 1) throw new UsageError('-batch-size needs a positive whole number, as -batch-size=100');
    const selected = await openEncryptedData(io.env, 'rewrap');
    try {
      const { storage } = selected;
      io.stderr.write(
        `Rewrapping ${selected.description}: every value goes under key term ${(await storage.keyringStatus()).active}\n`,
      );
      let visited = 0;
      let rewrapped = 0;
      for (;;) {
        const report = await storage.rewrap({ batchSize, maxBatches: BATCHES_PER_LINE });
        visited += report.visited;
        rewrapped += report.rewrapped;
        if (report.retired.length > 0) io.stderr.write(`  retired key terms ${report.retired.join(', ')}\n`);
        if (report.done) break;
        io.stderr.write(`  ${visited} keys visited, ${rewrapped} re-sealed\n`);
      }
      const status = await storage.keyringStatus();
      io.stdout.write(
        `Rewrap done: ${visited} keys visited, ${rewrapped} re-sealed; every value is under key term ${status.active}\n`,
      );
    } finally {
      await selected.close();
    }
  },
};
