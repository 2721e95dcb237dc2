import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineResponse } from '../../src/core/request.js';
import { BACKENDS, useWorkerScript, Worker } from './cluster.js';

const KILLS = 20;
const STREAMS = 4;
const KEYS = 6;

const script = useWorkerScript();

type Ack = Worker['acks'][number];
const data = (response: EngineResponse) => (response.body as { data: Record<string, any> }).data;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every acknowledged write readable at its version; each key's history whole (versions 1..current) and its current version readable. */
async function verify(reader: Worker, acks: readonly Ack[], label: string): Promise<void> {
  const byPath = new Map<string, Ack[]>();
  for (const ack of acks) byPath.set(ack.path, [...(byPath.get(ack.path) ?? []), ack]);
  await Promise.all(
    [...byPath].map(async ([path, written]) => {
      const metadata = await reader.kv({ method: 'GET', path: `metadata/${path}` });
      expect(metadata.status, `${label}: ${path} metadata`).toBe(200);
      const current = data(metadata).current_version as number;
      const versions = Object.keys(data(metadata).versions as object).map(Number).sort((a, b) => a - b);
      expect(current, `${label}: ${path} current version`).toBeGreaterThanOrEqual(Math.max(...written.map((ack) => ack.version)));
      expect(versions, `${label}: ${path} history`).toEqual(Array.from({ length: current }, (_, index) => index + 1));
      const latest = await reader.kv({ method: 'GET', path: `data/${path}` });
      expect(data(latest).metadata.version, `${label}: ${path} current data`).toBe(current);
      const reads = await Promise.all(written.map((ack) => reader.kv({ method: 'GET', path: `data/${path}`, query: { version: String(ack.version) } })));
      reads.forEach((read, index) => expect(data(read).data, `${label}: acknowledged ${path}@${written[index]!.version}`).toEqual({ value: written[index]!.value }));
    }),
  );
}

for (const [label, open, available] of BACKENDS) {
  describe.skipIf(!available)(`SIGKILL during writes over ${label}`, () => {
    let backend: Awaited<ReturnType<typeof open>>;
    beforeAll(async () => {
      backend = await open();
    }, 60_000);
    afterAll(async () => backend?.stop());

    it(`${KILLS} kills at random moments lose no acknowledged write and leave every key's history whole`, { timeout: 600_000 }, async () => {
      const setup = await Worker.start(script(), backend.env());
      expect((await setup.kv({ method: 'POST', path: 'config', body: { max_versions: 1000 } })).status).toBe(204);
      await setup.stop();
      // Each restarted process first checks what its killed predecessor acknowledged, then writes on until killed.
      let previous: Ack[] = [];
      for (let run = 0; run <= KILLS; run++) {
        const writer = await Worker.start(script(), backend.env());
        if (run > 0) {
          await verify(writer, previous, `after kill ${run}`);
          const next = await writer.kv({ method: 'POST', path: `data/${previous[0]!.path}`, body: { data: { value: -1 } } });
          expect(next.status, 'the restarted process writes on the keys the killed one was writing').toBe(200);
        }
        if (run === KILLS) {
          await writer.stop();
          break;
        }
        await writer.do({ type: 'load', prefix: `load/r${run}/`, streams: STREAMS, keys: KEYS });
        // Killed at a random moment once writes flow (a cold start on a busy machine can take a while).
        for (const started = Date.now(); writer.acks.length === 0 && !writer.failure && Date.now() - started < 30_000; ) await sleep(5);
        await sleep(Math.random() * 300);
        writer.child.kill('SIGKILL');
        await writer.exited;
        expect(writer.failure, `run ${run}: the load itself failed`).toBeUndefined();
        expect(writer.acks.length, `run ${run}: acknowledged writes before the kill`).toBeGreaterThan(0);
        previous = [...writer.acks];
      }
    });
  });
}
