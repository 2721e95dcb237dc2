// Memory per stored key, measured in a child process started with --expose-gc so that collections can be forced.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { spread } from './harness/harness.mjs';

const KEYS = 100_000;
const child = fileURLToPath(new URL('memory-child.mjs', import.meta.url));

function measure(mode) {
  const output = execFileSync(process.execPath, ['--expose-gc', child, String(KEYS), mode], { encoding: 'utf8' });
  const result = JSON.parse(output);
  return { ...result, totalPerKey: result.heapPerKey + result.arrayBuffersPerKey };
}

const bytes = (value) => `${Math.round(value).toLocaleString('en-US')} B`;

export async function memoryBenchmarks(log, { repeats = 2 } = {}) {
  log(`memory: ${KEYS.toLocaleString('en-US')} keys, 1 version of 100 bytes each`);
  const engine = [];
  const raw = [];
  for (let run = 0; run < repeats; run++) {
    engine.push(measure('engine'));
    raw.push(measure('raw'));
  }
  const engineTotal = spread(engine.map((run) => run.totalPerKey));
  const rawTotal = spread(raw.map((run) => run.totalPerKey));
  const heap = spread(engine.map((run) => run.heapPerKey));
  return [
    {
      section: 'memory',
      name: `KV memory per key at ${KEYS.toLocaleString('en-US')} keys (1 version, 100-byte value)`,
      unit: 'B/key',
      result: {
        subject: engineTotal,
        limit: rawTotal,
        ratio: spread(engine.map((run, index) => run.totalPerKey / raw[index].totalPerKey)),
      },
      measuredText: `${bytes(engineTotal.median)}/key (heap ${bytes(heap.median)} + buffers ${bytes(engineTotal.median - heap.median)})`,
      limitText: `${bytes(rawTotal.median)}/key (the 100-byte values put straight into MemoryStorage)`,
      goal: { kind: 'info' },
      ratioFormat: 'times',
      detail: { engine, raw },
    },
  ];
}
