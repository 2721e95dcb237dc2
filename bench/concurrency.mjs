// 1,000 concurrent check-and-set writers: their throughput, and that exactly one writer wins each version.
import { KvEngine, MemoryStorage } from 'strongroom';
import { settings, spread } from './harness/harness.mjs';
import { expectOk, keyPath } from './harness/fixtures.mjs';

const WRITERS = 1_000;

/**
 * A scenario owns its engines and knows, per round, which key each writer targets. One round starts every writer at
 * once with cas = the version it last saw, then checks the outcome against the versions read back.
 */
function scenario(name, { engines, keys }) {
  const versions = new Array(keys).fill(0);
  const winners = new Map();
  let violations = 0;
  let commits = 0;
  const rates = [];

  async function round() {
    const started = performance.now();
    const responses = await Promise.all(
      Array.from({ length: WRITERS }, (_, writer) => {
        const key = writer % keys;
        const engine = engines[writer % engines.length];
        return engine.handle({
          method: 'POST',
          path: `data/${keyPath(key)}`,
          body: { data: { writer }, options: { cas: versions[key] } },
        });
      }),
    );
    rates.push((WRITERS * 1000) / (performance.now() - started));
    const wonPerKey = new Array(keys).fill(0);
    responses.forEach((response, writer) => {
      const key = writer % keys;
      if (response.status === 200) {
        wonPerKey[key]++;
        const won = `${key}@${response.body.data.version}`;
        if (winners.has(won) || response.body.data.version !== versions[key] + 1) violations++;
        winners.set(won, writer);
      } else if (response.status !== 400 || !/check-and-set/.test(response.body.errors[0])) {
        violations++;
      }
    });
    for (let key = 0; key < keys; key++) {
      const read = await expectOk(engines[0].handle({ method: 'GET', path: `data/${keyPath(key)}` }));
      const { version } = read.body.data.metadata;
      // Exactly one winner per key and round, and the stored data is the winner's.
      if (
        wonPerKey[key] !== 1 ||
        version !== versions[key] + 1 ||
        winners.get(`${key}@${version}`) !== read.body.data.data.writer
      )
        violations++;
      versions[key] = version;
    }
    commits += keys;
  }

  return {
    name,
    round,
    row: () => ({
      section: 'concurrency',
      name,
      unit: 'writes/s',
      result: { subject: spread(rates) },
      passed: violations === 0 && commits > 0,
      measuredText: `${Math.round(spread(rates).median).toLocaleString('en-US')} writes/s (${commits.toLocaleString('en-US')} versions committed)`,
      goal: { kind: 'check', text: 'one winner per version' },
      detail: { rounds: rates.length, commits, violations },
    }),
  };
}

function engines(count) {
  const storage = new MemoryStorage();
  return Array.from({ length: count }, () => new KvEngine({ storage }));
}

export async function concurrencyBenchmarks(log) {
  log(`concurrency: ${WRITERS} concurrent cas writers`);
  const scenarios = [
    scenario(`${WRITERS} cas writers on one key`, { engines: engines(1), keys: 1 }),
    scenario(`${WRITERS} cas writers on one key, 2 engines over one storage`, { engines: engines(2), keys: 1 }),
    scenario(`${WRITERS} cas writers on ${WRITERS} keys`, { engines: engines(1), keys: WRITERS }),
  ];
  // Interleaved like the other comparisons: every round runs each scenario once.
  const rounds = settings.rounds * 6;
  for (let round = 0; round < rounds; round++) for (const each of scenarios) await each.round();
  return scenarios.map((each) => each.row());
}
