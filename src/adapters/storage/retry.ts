const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` again while it fails with a transient error (a lock held by another process, a serialization
 * conflict), backing off with jitter so contenders spread out, until `budgetMs` has passed; then the last error
 * propagates. Each attempt must be a whole transaction, so a retry never repeats half of one.
 */
export async function retryTransient<T>(
  attempt: () => Promise<T> | T,
  isTransient: (error: unknown) => boolean,
  budgetMs: number,
): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let round = 0; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransient(error) || Date.now() >= deadline) throw error;
      await sleep(Math.random() * Math.min(2 ** round, 50));
    }
  }
}
