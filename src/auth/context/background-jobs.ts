/**
 * Background work (tidy): at most one job per name is in flight, and `idle()` lets a caller (a test, a graceful
 * shutdown) wait until every started job has finished.
 */
export class BackgroundJobs {
  private readonly running = new Map<string, Promise<void>>();

  /** Starts `task` unless a job of that name is still running; answers the job, or undefined when one was running. */
  start(name: string, task: () => Promise<void>): Promise<void> | undefined {
    if (this.running.has(name)) return undefined;
    const job = task();
    this.running.set(name, job);
    const forget = () => {
      this.running.delete(name);
    };
    job.then(forget, forget);
    return job;
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }
}
