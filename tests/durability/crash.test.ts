import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineResponse } from '../../src/core/framework/request.js';
import { JsonStore } from '../../src/core/store/stored-json.js';
import { KvEngine } from '../../src/kv/kv-engine.js';
import type { StoredMetadata } from '../../src/kv/documents/head-document.js';
import { keptRange } from '../../src/kv/rules/versions.js';
import type { Storage } from '../../src/ports/storage.js';
import { PostgresStorage } from '../../src/postgres.js';
import { SqliteStorage } from '../../src/sqlite.js';
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
      const versions = Object.keys(data(metadata).versions as object)
        .map(Number)
        .sort((a, b) => a - b);
      expect(current, `${label}: ${path} current version`).toBeGreaterThanOrEqual(
        Math.max(...written.map((ack) => ack.version)),
      );
      expect(versions, `${label}: ${path} history`).toEqual(Array.from({ length: current }, (_, index) => index + 1));
      const latest = await reader.kv({ method: 'GET', path: `data/${path}` });
      expect(data(latest).metadata.version, `${label}: ${path} current data`).toBe(current);
      const reads = await Promise.all(
        written.map((ack) =>
          reader.kv({ method: 'GET', path: `data/${path}`, query: { version: String(ack.version) } }),
        ),
      );
      reads.forEach((read, index) =>
        expect(data(read).data, `${label}: acknowledged ${path}@${written[index]!.version}`).toEqual({
          value: written[index]!.value,
        }),
      );
    }),
  );
}

/** Every key below `prefix`, relative to it, the way the engines walk a tree. */
async function keysBelow(storage: Storage, prefix: string): Promise<string[]> {
  const names: string[] = [];
  for await (const name of new JsonStore(storage).keysBelow(prefix)) names.push(name);
  return names;
}

/**
 * What the kills left behind that no key references: version data no record or kept entry document names, and entry
 * documents of versions no key keeps. Read straight from the database, with the engine's layout under `kv/`.
 */
async function orphans(storage: Storage): Promise<string[]> {
  const decode = async (key: string) => JSON.parse(new TextDecoder().decode(await storage.get(key)));
  const heads = new Map<string, StoredMetadata>();
  const referenced = new Set<string>();
  for (const path of await keysBelow(storage, 'kv/metadata/')) {
    const head = (await decode(`kv/metadata/${path}`)) as StoredMetadata;
    heads.set(path, head);
    for (const entry of head.versions) if (entry.blob) referenced.add(entry.blob);
  }
  const found: string[] = [];
  for (const name of await keysBelow(storage, 'kv/entries/')) {
    const slash = name.lastIndexOf('/');
    const head = heads.get(name.slice(0, slash));
    const version = Number(name.slice(slash + 1));
    const kept = head !== undefined && version >= keptRange(head).from && version <= head.current_version;
    if (!kept) found.push(`kv/entries/${name}`);
    else if (!head.versions.some((entry) => entry.version === version)) {
      const blob = (await decode(`kv/entries/${name}`)).blob as string | undefined;
      if (blob) referenced.add(blob);
    }
  }
  for (const name of await keysBelow(storage, 'kv/versions/')) {
    if (!referenced.has(name.slice(name.lastIndexOf('/') + 1))) found.push(`kv/versions/${name}`);
  }
  return found;
}

function openDirectly(env: Record<string, string>): Storage & { close(): Promise<void> } {
  return env.STORAGE_KIND === 'postgres'
    ? new PostgresStorage({ connectionString: env.STORAGE_TARGET! })
    : new SqliteStorage({ path: env.STORAGE_TARGET! });
}

describe('the orphan scan of this test', () => {
  it('finds version data and entry documents no key references, and nothing else', async () => {
    const backend = await BACKENDS[0]![1]();
    const storage = openDirectly(backend.env());
    try {
      const kv = new KvEngine({ storage });
      await kv.writeConfig({ max_versions: 20 });
      for (let n = 0; n < 15; n++) await kv.write('app/db', { n });
      expect(await keysBelow(storage, 'kv/entries/')).not.toHaveLength(0);
      expect(await orphans(storage)).toEqual([]);
      await storage.put('kv/versions/ab/ab0123', new TextEncoder().encode('{}'));
      await storage.put('kv/entries/app/gone/1', new TextEncoder().encode('{}'));
      expect(await orphans(storage)).toEqual(['kv/entries/app/gone/1', 'kv/versions/ab/ab0123']);
    } finally {
      await storage.close();
      await backend.stop();
    }
  });
});

for (const [label, open, available] of BACKENDS) {
  describe.skipIf(!available)(`SIGKILL during writes over ${label}`, () => {
    let backend: Awaited<ReturnType<typeof open>>;
    beforeAll(async () => {
      backend = await open();
    }, 60_000);
    afterAll(async () => backend?.stop());

    it(
      `${KILLS} kills at random moments lose no acknowledged write and leave every key's history whole`,
      { timeout: 600_000 },
      async () => {
        const setup = await Worker.start(script(), backend.env());
        expect((await setup.kv({ method: 'POST', path: 'config', body: { max_versions: 1000 } })).status).toBe(204);
        await setup.stop();
        // Each restarted process first checks what its killed predecessor acknowledged, then writes on until killed.
        let previous: Ack[] = [];
        for (let run = 0; run <= KILLS; run++) {
          const writer = await Worker.start(script(), backend.env());
          if (run > 0) {
            await verify(writer, previous, `after kill ${run}`);
            const next = await writer.kv({
              method: 'POST',
              path: `data/${previous[0]!.path}`,
              body: { data: { value: -1 } },
            });
            expect(next.status, 'the restarted process writes on the keys the killed one was writing').toBe(200);
          }
          if (run === KILLS) {
            await writer.stop();
            break;
          }
          await writer.do({ type: 'load', prefix: `load/r${run}/`, streams: STREAMS, keys: KEYS });
          // Killed at a random moment once writes flow (a cold start on a busy machine can take a while).
          for (
            const started = Date.now();
            writer.acks.length === 0 && !writer.failure && Date.now() - started < 30_000;
          )
            await sleep(5);
          await sleep(Math.random() * 300);
          writer.child.kill('SIGKILL');
          await writer.exited;
          expect(writer.failure, `run ${run}: the load itself failed`).toBeUndefined();
          expect(writer.acks.length, `run ${run}: acknowledged writes before the kill`).toBeGreaterThan(0);
          previous = [...writer.acks];
        }
        // Over these storages a change is one atomic commit, so a kill leaves nothing for the orphan reclaim to do.
        const storage = openDirectly(backend.env());
        try {
          expect(await keysBelow(storage, 'kv/versions/')).not.toHaveLength(0);
          expect(await orphans(storage)).toEqual([]);
        } finally {
          await storage.close();
        }
      },
    );
  });
}
