/** A bounded map of values that stop counting at a given time; the oldest entries go first when it is full. */
const maxEntries = 10_000;

export class ExpiringCache<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();

  /** The entry, expired or not: the caller compares `until` with its own clock. */
  get(key: string): { description: T; until: number } | undefined {
    const entry = this.entries.get(key);
    return entry && { description: entry.value, until: entry.until };
  }

  remember(key: string, value: T, until: number): void {
    this.entries.delete(key);
    if (this.entries.size >= maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, until });
  }
}
