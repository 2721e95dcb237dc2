import { RecentMap } from '../../lib/recent-map.js';

/**
 * Remembers, per key, the cleanup list of the last record this process committed and then fully cleaned up (every
 * listed blob and entry document confirmed removed). The next change of the key finds that same list in the record
 * and need not remove those again; a record with any other list (another process's commit, a failed removal) is
 * retried as usual. Bounded: the oldest keys are forgotten first, which only costs a redundant retry.
 */

const CAPACITY = 1024;

interface Cleanup {
  garbage: readonly string[];
  retired: readonly number[];
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

export class ConfirmedCleanups {
  private readonly confirmed = new RecentMap<string, Cleanup>(CAPACITY);

  confirm(key: string, garbage: readonly string[], retired: readonly number[]): void {
    if (garbage.length === 0 && retired.length === 0) this.confirmed.delete(key);
    else this.confirmed.set(key, { garbage: [...garbage], retired: [...retired] });
  }

  isConfirmed(key: string, garbage: readonly string[], retired: readonly number[]): boolean {
    const known = this.confirmed.get(key);
    return known !== undefined && sameList(known.garbage, garbage) && sameList(known.retired, retired);
  }
}
