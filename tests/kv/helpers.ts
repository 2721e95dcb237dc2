import { expect } from 'vitest';
import { ManualClock } from '../../src/adapters/clocks.js';
import { MemoryStorage } from '../../src/adapters/memory-storage.js';
import type { CapabilityCheck, EngineRequest, EngineResponse } from '../../src/core/request.js';
import { KvEngine, type KvEngineOptions } from '../../src/kv/index.js';
import type { Storage } from '../../src/ports/storage.js';

export const MERGE = { 'Content-Type': 'application/merge-patch+json' };
export const JSON_PATCH = { 'Content-Type': 'application/json-patch+json' };

/** The acceptance-suite shorthands of reference/kv.md §14, over one engine. */
export function setup(options: Partial<KvEngineOptions> = {}) {
  const clock = new ManualClock('2026-03-01T12:00:00Z');
  const storage: Storage = options.storage ?? new MemoryStorage();
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
    LIST: (path: string, query: Record<string, string> = {}) => handle({ method: 'LIST', path: `metadata/${path}`, query }),
    SUB: (path: string, query: Record<string, string> = {}) => handle({ method: 'GET', path: `subkeys/${path}`, query }),
    config: (body: unknown) => handle({ method: 'POST', path: 'config', body }),
  };
}

/** The `data` of a 200/404-with-data answer. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary response shapes
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

/** 404 with `{"errors":[]}` (404∅ in the reference's notation). */
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
