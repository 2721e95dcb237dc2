import { expect } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import type { CapabilityCheck, EngineRequest, EngineResponse } from '../../src/core/framework/request.js';
import { KvEngine, type KvEngineOptions } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';
import { testStorage } from '../support/test-storage.js';

export const MERGE = { 'Content-Type': 'application/merge-patch+json' };
export const JSON_PATCH = { 'Content-Type': 'application/json-patch+json' };

/** Shorthands for the KV acceptance cases, over one engine. */
export function setup(options: Partial<KvEngineOptions> = {}) {
  const clock = new ManualClock('2026-03-01T12:00:00Z');
  const storage: Storage = options.storage ?? testStorage();
  const kv = new KvEngine({ clock, ...options, storage });
  const handle = (request: EngineRequest) => kv.handle(request);
  return {
    kv,
    clock,
    storage,
    handle,
    /** W(p, data, cas?) */
    W: (path: string, data: unknown, cas?: unknown) =>
      handle({ method: 'POST', path: `data/${path}`, body: cas === undefined ? { data } : { data, options: { cas } } }),
    /** R(p, v?) */
    R: (path: string, version?: number | string) =>
      handle({ method: 'GET', path: `data/${path}`, query: version === undefined ? {} : { version: String(version) } }),
    MD: (path: string, body: unknown) => handle({ method: 'POST', path: `metadata/${path}`, body }),
    MR: (path: string) => handle({ method: 'GET', path: `metadata/${path}` }),
    PATCH: (path: string, body: unknown, headers: Record<string, string> = MERGE) =>
      handle({ method: 'PATCH', path: `data/${path}`, body, headers }),
    MP: (path: string, body: unknown) => handle({ method: 'PATCH', path: `metadata/${path}`, body, headers: MERGE }),
    DEL: (path: string) => handle({ method: 'DELETE', path: `data/${path}` }),
    versions: (endpoint: 'delete' | 'undelete' | 'destroy', path: string, versions: unknown) =>
      handle({ method: endpoint === 'destroy' ? 'PUT' : 'POST', path: `${endpoint}/${path}`, body: { versions } }),
    LIST: (path: string, query: Record<string, string> = {}) =>
      handle({ method: 'LIST', path: `metadata/${path}`, query }),
    SUB: (path: string, query: Record<string, string> = {}) =>
      handle({ method: 'GET', path: `subkeys/${path}`, query }),
    config: (body: unknown) => handle({ method: 'POST', path: 'config', body }),
  };
}

/** The `data` of a 200/404-with-data answer. */
export function dataOf(response: EngineResponse): any {
  expect(response.body).toBeDefined();
  expect(response.body).toHaveProperty('data');
  return (response.body as { data: unknown }).data;
}

export function errorsOf(response: EngineResponse): string[] {
  return (response.body as { errors: string[] }).errors;
}

export function expectError(response: EngineResponse, status: number, fragment: string): void {
  expect(response.status).toBe(status);
  expect(errorsOf(response).join('\n')).toContain(fragment);
}

/** 404 with `{"errors":[]}`. */
export function expectPlain404(response: EngineResponse): void {
  expect(response).toEqual({ status: 404, body: { errors: [] } });
}

/** An authorize callback that grants exactly the listed "capability:path" pairs, and records what was asked. */
export function policy(...grants: string[]) {
  const asked: CapabilityCheck[] = [];
  const allowed = new Set(grants);
  return {
    asked,
    authorize: (check: CapabilityCheck) => {
      asked.push(check);
      return allowed.has(`${check.capability}:${check.path}`);
    },
  };
}

export const VERSION_METADATA_KEYS = ['created_time', 'custom_metadata', 'deletion_time', 'destroyed', 'version'];

const decoder = new TextDecoder();

/** A key's head record as stored (the fields the layout tests look at). */
export async function storedHead(storage: Storage, path: string) {
  return JSON.parse(decoder.decode(await storage.get(`kv/metadata/${path}`))) as {
    versions: { version: number; blob?: string }[];
    garbage: string[];
    retired: number[];
    spilled: number;
    documents_from?: number;
  };
}

/** The versions that have an entry document, ascending. */
export async function entryDocumentVersions(storage: Storage, path: string): Promise<number[]> {
  return (await storage.list(`kv/entries/${path}/`)).map(Number).sort((a, b) => a - b);
}

/** An entry document as stored. */
export async function storedEntry(
  storage: Storage,
  path: string,
  version: number,
): Promise<Record<string, unknown> | undefined> {
  const bytes = await storage.get(`kv/entries/${path}/${version}`);
  return bytes === undefined ? undefined : (JSON.parse(decoder.decode(bytes)) as Record<string, unknown>);
}

/** How many version blobs the storage holds. */
export async function blobCount(storage: Storage): Promise<number> {
  let count = 0;
  for (const folder of await storage.list('kv/versions/'))
    count += (await storage.list(`kv/versions/${folder}`)).length;
  return count;
}

/** A MemoryStorage without atomic commits: the engine then takes the path that writes ahead of its commit. */
export class MemoryStorageWithoutCommits extends MemoryStorage {
  override commit = undefined as unknown as MemoryStorage['commit'];
}

/** A key `doc` keeping up to 100 versions, written `count` times with data `{ version }`. */
export async function withVersions(count: number, storage: Storage = testStorage()) {
  const env = setup({ storage });
  await env.MD('doc', { max_versions: 100 });
  for (let version = 1; version <= count; version++) expect((await env.W('doc', { version })).status).toBe(200);
  return { ...env, storage };
}

/** A copy of every stored document into another storage (by default a fresh testStorage(), with atomic commits). */
export async function copyStorage<T extends Storage = Storage>(from: Storage, to: T = testStorage() as T): Promise<T> {
  const walk = async (prefix: string): Promise<void> => {
    for (const name of await from.list(prefix)) {
      if (name.endsWith('/')) await walk(prefix + name);
      else await to.put(prefix + name, (await from.get(prefix + name))!);
    }
  };
  await walk('');
  return to;
}

/**
 * A race on key `k`, which holds versions 1 to 20 with data `{ i: version }`: `writer` writes versions 21 to 30 while
 * `changer` deletes the eight versions from `first` on and destroys the two after them; every write and every change
 * must be kept.
 */
export async function raceWritesWithChanges(changer: KvEngine, writer: KvEngine, first: number): Promise<void> {
  const writes = Array.from({ length: 10 }, (_, i) =>
    writer.handle({ method: 'POST', path: 'data/k', body: { data: { i: 21 + i } } }),
  );
  const deletes = Array.from({ length: 8 }, (_, i) =>
    changer.handle({ method: 'POST', path: 'delete/k', body: { versions: [first + i] } }),
  );
  const destroys = [first + 8, first + 9].map((version) =>
    changer.handle({ method: 'PUT', path: 'destroy/k', body: { versions: [version] } }),
  );
  for (const response of await Promise.all([...writes, ...deletes, ...destroys]))
    expect(response.status).toBeLessThan(300);
  const meta = dataOf(await changer.handle({ method: 'GET', path: 'metadata/k' }));
  expect(meta.current_version).toBe(30);
  for (let version = first; version <= 30; version++) {
    const summary = meta.versions[String(version)];
    expect(summary.deletion_time !== '').toBe(version < first + 8);
    expect(summary.destroyed).toBe(version === first + 8 || version === first + 9);
  }
  for (let version = first + 10; version <= 30; version++) {
    expect(
      dataOf(await writer.handle({ method: 'GET', path: 'data/k', query: { version: String(version) } })).data,
    ).toEqual({ i: version });
  }
}
