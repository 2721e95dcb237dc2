// Side-by-side measurement on a noisy shared machine: every goal is a ratio of two tasks that run interleaved in the
// same rounds (alternating which goes first), so background load hits both alike; the spread across rounds is kept.
import { Bench } from 'tinybench';

/** Settings for a whole run; `--quick` shrinks them for a smoke test of the bench itself. */
export const settings = {
  rounds: 5,
  /** Milliseconds per task per round. */
  time: 400,
  warmupTime: 150,
};

export function configure(overrides) {
  Object.assign(settings, overrides);
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function spread(values) {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), samples: values.length };
}

/** A row's result from per-round rates of the subject and of the limit, paired by round. */
export function pairedResult(subject, limit) {
  return {
    subject: spread(subject),
    limit: spread(limit),
    ratio: spread(subject.map((rate, round) => rate / limit[round])),
  };
}

/**
 * Runs tasks interleaved for `settings.rounds` rounds and answers each task's operations per second per round.
 * A task is `{ name, fn, batch }`: `fn` performs `batch` operations per call (batching keeps timer and promise
 * overhead of the harness out of microsecond-scale measurements).
 */
export async function interleaved(tasks, { rounds = settings.rounds, time = settings.time } = {}) {
  const perTask = tasks.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? tasks.map((_, index) => index) : tasks.map((_, index) => tasks.length - 1 - index);
    const bench = new Bench({
      time,
      warmupTime: settings.warmupTime,
      iterations: 8,
      warmupIterations: 4,
      throws: true,
    });
    for (const index of order) bench.add(tasks[index].name, tasks[index].fn);
    await bench.run();
    for (const index of order) {
      const result = bench.getTask(tasks[index].name).result;
      if (result.state !== 'completed') throw new Error(`${tasks[index].name}: ${result.state} ${result.error ?? ''}`);
      perTask[index].push(((tasks[index].batch ?? 1) * 1000) / result.period);
    }
  }
  return perTask;
}

/**
 * Throughput of `subject` relative to `limit`, per round: answers both spreads in ops/s and the ratio spread
 * (subject / limit) computed round by round.
 */
export async function compare(subject, limit, options) {
  const [subjectRates, limitRates] = await interleaved([subject, limit], options);
  const ratios = subjectRates.map((rate, index) => rate / limitRates[index]);
  return { subject: spread(subjectRates), limit: spread(limitRates), ratio: spread(ratios) };
}

/** Repeats an async function `batch` times: the body of a batched task. */
export function batched(batch, operation) {
  return async () => {
    for (let i = 0; i < batch; i++) await operation(i);
  };
}

/** Repeats a synchronous function `batch` times. */
export function batchedSync(batch, operation) {
  return () => {
    for (let i = 0; i < batch; i++) operation(i);
  };
}
