import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import type { EngineRequest, RequestActor } from '../../src/core/framework/request.js';
import { KvEngine } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { MemoryStorageWithoutCommits } from './helpers.js';

/**
 * The documents the KV engine stores, read back across releases. Each folder fixtures/stored-<release>/ holds every
 * kind of document exactly as that release wrote them (documents/, one file per key below the storage prefix) and the
 * answers that release gave when they were read and changed through handle(), over a storage with atomic commits
 * (answers.json) and over one without (answers-without-commits.json). Today's engine, over the same documents, must
 * give the same answers. The folder's README says how it was captured; `CAPTURE_STORED_KV=stored-<release> npx vitest
 * run tests/kv/stored-documents.test.ts` captures a new one with the code of the day.
 */

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const PREFIX = 'kv/';
const WRITTEN_AT = '2026-03-01T12:00:00Z';
/** Two days later: versions scheduled for deletion after 2 hours read as deleted, those after 1000 hours not yet. */
const READ_AT = '2026-03-03T12:00:00Z';

/** A request through handle(), or a call of `reclaimOrphans`, which reads every head and entry document. */
type Step = { request: EngineRequest } | { reclaim: true };
interface Answer {
  step: Step;
  response: unknown;
}

/** Every removal of a blob or entry document fails while `failing` is set: the head then lists them to retry. */
class RemovalsFail extends MemoryStorageWithoutCommits {
  failing = false;
  override async delete(key: string): Promise<void> {
    if (this.failing && (key.startsWith(`${PREFIX}versions/`) || key.startsWith(`${PREFIX}entries/`)))
      throw new Error('injected removal failure');
    return super.delete(key);
  }
}

function engine(storage: Storage, clock: ManualClock): KvEngine {
  return new KvEngine({ storage, clock });
}

/** Who the captured documents record as making each change (format 2 on). */
const CAPTURER: RequestActor = { display_name: 'token-capture', entity_id: '', client_id: 'capture-client' };

async function run(kv: KvEngine, clock: ManualClock, requests: readonly EngineRequest[]): Promise<void> {
  for (const request of requests) {
    clock.advance(60);
    const response = await kv.handle({ ...request, actor: async () => CAPTURER });
    if (response.status >= 300) throw new Error(`a write was refused: ${JSON.stringify({ request, response })}`);
  }
}

const write = (path: string, data: Record<string, unknown>): EngineRequest => ({
  method: 'POST',
  path: `data/${path}`,
  body: { data },
});
const writes = (path: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) =>
    write(path, { n: from + index, nested: { list: [from + index] } }),
  );

/**
 * Every kind of document, written through handle() as a service would: the config with every setting; heads with
 * inline entries only, with entry documents, with data documents, of metadata only, deleted and destroyed versions,
 * scheduled deletions, custom_metadata, metadata check-and-set, a history of changes, a moved and a copied key; and,
 * over a storage without atomic commits whose removals fail, a head listing `garbage` and `retired` to retry.
 */
async function writeEveryDocument(): Promise<Map<string, Uint8Array>> {
  const clock = new ManualClock(WRITTEN_AT);
  const atomic = new MemoryStorage();
  const kv = engine(atomic, clock);
  await run(kv, clock, [
    {
      method: 'POST',
      path: 'config',
      body: { max_versions: 12, cas_required: false, delete_version_after: '1000h', metadata_cas_required: false },
    },
    {
      method: 'POST',
      path: 'metadata/app/db',
      body: {
        max_versions: 5,
        cas_required: true,
        delete_version_after: '2h',
        custom_metadata: { owner: 'team-a', tier: '1' },
      },
    },
    { method: 'POST', path: 'data/app/db', body: { data: { user: 'admin', password: 'one' }, options: { cas: 0 } } },
    { method: 'POST', path: 'data/app/db', body: { data: { user: 'admin', password: 'two' }, options: { cas: 1 } } },
    {
      method: 'PATCH',
      path: 'data/app/db',
      body: { data: { password: 'three' }, options: { cas: 2 } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    },
    { method: 'POST', path: 'delete/app/db', body: { versions: [1] } },
    { method: 'PUT', path: 'destroy/app/db', body: { versions: [2] } },
    {
      method: 'POST',
      path: 'metadata/app/meta-only',
      body: { custom_metadata: { purpose: 'placeholder' }, metadata_cas_required: true },
    },
    {
      method: 'PATCH',
      path: 'metadata/app/meta-only',
      body: { custom_metadata: { added: 'later' }, metadata_cas: 0 },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    },
    { method: 'POST', path: 'metadata/deep', body: { max_versions: 30 } },
    ...writes('deep', 1, 14),
    { method: 'POST', path: 'delete/deep', body: { versions: [4, 12] } },
    { method: 'PUT', path: 'destroy/deep', body: { versions: [3, 13] } },
    write('source', { moving: true }),
    write('source', { moving: 'still' }),
    { method: 'POST', path: 'move/source', body: { to: 'moved/here' } },
    { method: 'POST', path: 'copy/app/db', body: { to: 'copied' } },
    write('a/b/c/leaf', { depth: 4 }),
    { method: 'DELETE', path: 'data/a/b/c/leaf' },
  ]);
  const ordered = new RemovalsFail();
  const untidy = engine(ordered, clock);
  await run(untidy, clock, [
    { method: 'POST', path: 'metadata/untidy', body: { max_versions: 12 } },
    ...writes('untidy', 1, 13),
  ]);
  ordered.failing = true;
  await run(untidy, clock, writes('untidy', 14, 15));
  const documents = new Map<string, Uint8Array>();
  for (const storage of [atomic, ordered]) {
    for (const key of await keysBelow(storage, PREFIX)) documents.set(key, (await storage.get(key))!);
  }
  return documents;
}

/** The requests the answers are recorded for: every read of every key, then changes of each kind, then reads again. */
function replaySteps(): Step[] {
  const keys: [string, number][] = [
    ['app/db', 3],
    ['app/meta-only', 0],
    ['deep', 14],
    ['moved/here', 2],
    ['copied', 3],
    ['a/b/c/leaf', 1],
    ['untidy', 15],
  ];
  const read = (path: string, query: Record<string, string> = {}): Step => ({
    request: { method: 'GET', path, query },
  });
  const request = (method: EngineRequest['method'], path: string, body?: unknown): Step => ({
    request: { method, path, ...(body === undefined ? {} : { body }) },
  });
  const readAll = (): Step[] => [
    read('config'),
    ...keys.flatMap(([path, current]) => [
      read(`data/${path}`),
      ...Array.from({ length: current }, (_, index) => read(`data/${path}`, { version: String(index + 1) })),
      read(`metadata/${path}`),
      read(`subkeys/${path}`),
      read(`subkeys/${path}`, { depth: '1' }),
    ]),
    request('LIST', 'metadata/'),
    request('LIST', 'metadata/app/'),
    request('SCAN', 'metadata/'),
    request('LIST', 'detailed-metadata/'),
    request('SCAN', 'detailed-metadata/', undefined),
  ];
  const merge = { 'Content-Type': 'application/merge-patch+json' };
  const jsonPatch = { 'Content-Type': 'application/json-patch+json' };
  return [
    ...readAll(),
    { reclaim: true },
    request('POST', 'data/app/db', { data: { user: 'admin', password: 'four' }, options: { cas: 3 } }),
    { request: { method: 'PATCH', path: 'data/deep', body: { data: { patched: true } }, headers: merge } },
    {
      request: {
        method: 'PATCH',
        path: 'data/untidy',
        body: { data: [{ op: 'add', path: '/patched', value: 1 }] },
        headers: jsonPatch,
      },
    },
    request('POST', 'data/moved/here', { data: { moved: 'and written' } }),
    request('POST', 'undelete/deep', { versions: [4, 12] }),
    request('POST', 'delete/deep', { versions: [5, 11] }),
    request('PUT', 'destroy/deep', { versions: [6, 14] }),
    request('POST', 'undelete/app/db', { versions: [1] }),
    request('POST', 'delete/untidy', { versions: [5] }),
    request('POST', 'metadata/deep', { max_versions: 10 }),
    request('POST', 'data/deep', { data: { pruned: 'to ten' } }),
    {
      request: {
        method: 'PATCH',
        path: 'metadata/app/meta-only',
        body: { custom_metadata: { purpose: null }, metadata_cas: 2 },
        headers: merge,
      },
    },
    request('POST', 'metadata/untidy', { custom_metadata: { tidied: 'yes' } }),
    request('POST', 'config', { max_versions: 20 }),
    request('POST', 'move/copied', { to: 'copied-again' }),
    request('POST', 'copy/deep', { to: 'deep-copy' }),
    ...readAll(),
    read('data/deep-copy'),
    read('metadata/deep-copy'),
    read('metadata/copied-again'),
    { reclaim: true },
    request('DELETE', 'metadata/deep'),
    request('DELETE', 'metadata/untidy'),
    request('DELETE', 'metadata/app/db'),
    read('data/deep'),
    read('metadata/untidy'),
    request('LIST', 'metadata/'),
    { reclaim: true },
  ];
}

/** Runs the steps in order from READ_AT, a minute apart, as JSON would carry their answers. */
async function answer(storage: Storage, steps: readonly Step[]): Promise<Answer[]> {
  const clock = new ManualClock(READ_AT);
  const kv = engine(storage, clock);
  const answers: Answer[] = [];
  for (const step of steps) {
    clock.advance(60);
    const response: unknown =
      'reclaim' in step ? await kv.reclaimOrphans({ graceSeconds: 3600 }) : await kv.handle(step.request);
    answers.push(JSON.parse(JSON.stringify({ step, response })) as Answer);
  }
  return answers;
}

/** The answers are recorded over both kinds of storage, which read and change documents by different code. */
const STORAGES: [file: string, storage: () => Storage][] = [
  ['answers.json', () => new MemoryStorage()],
  ['answers-without-commits.json', () => new MemoryStorageWithoutCommits()],
];

async function keysBelow(storage: Storage, folder: string): Promise<string[]> {
  const names = await storage.list(folder);
  const nested = await Promise.all(
    names.map((name) => (name.endsWith('/') ? keysBelow(storage, folder + name) : [folder + name])),
  );
  return nested.flat();
}

function filesBelow(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesBelow(path) : [path];
  });
}

async function stored(documents: ReadonlyMap<string, Uint8Array>, storage: Storage): Promise<Storage> {
  for (const [key, bytes] of documents) await storage.put(key, bytes);
  return storage;
}

/**
 * Answers without the unknown actors, which releases before Vault 1.21's attribution did not answer: a metadata read
 * now shows `created_by`, `deleted_by` and `last_updated_by`, null where the documents record none (every document of
 * those releases, and every change the replay makes, which names no caller). Only null ones go: a recorded actor must
 * be answered as it was, and one the engine made up would still differ.
 */
/** Also without destroy_version_after at "0s": what a document from before it reads as, and no release answered it. */
function withoutUnknownActors<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (name, field: unknown) =>
    (field === null && ['created_by', 'deleted_by', 'last_updated_by'].includes(name)) ||
    (name === 'destroy_version_after' && field === '0s')
      ? undefined
      : field,
  ) as T;
}

const CAPTURE = process.env.CAPTURE_STORED_KV;

describe.runIf(CAPTURE)('capturing the stored documents of today', () => {
  it(`writes fixtures/${CAPTURE}/`, async () => {
    const target = join(FIXTURES, CAPTURE!);
    const documents = await writeEveryDocument();
    for (const [key, bytes] of documents) {
      const file = join(target, 'documents', `${key.slice(PREFIX.length)}.json`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, bytes);
    }
    for (const [file, storage] of STORAGES) {
      writeFileSync(
        join(target, file),
        `${JSON.stringify(await answer(await stored(documents, storage()), replaySteps()), null, 2)}\n`,
      );
    }
  });
});

const RELEASES = readdirSync(FIXTURES).filter((name) => name.startsWith('stored-') && name !== CAPTURE);

describe.each(RELEASES)('documents as %s stored them', (release) => {
  const folder = join(FIXTURES, release, 'documents');
  const documents = new Map(
    filesBelow(folder).map((file) => [PREFIX + relative(folder, file).slice(0, -'.json'.length), readFileSync(file)]),
  );

  it.each(STORAGES)('read and changed through the API, answer as they did then (%s)', async (file, storage) => {
    const recorded = JSON.parse(readFileSync(join(FIXTURES, release, file), 'utf8')) as Answer[];
    const answers = await answer(
      await stored(documents, storage()),
      recorded.map(({ step }) => step),
    );
    expect(withoutUnknownActors(answers)).toEqual(withoutUnknownActors(recorded));
  });
});
