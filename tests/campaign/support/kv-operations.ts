import type { EngineRequest, EngineResponse } from '../../../src/core/framework/request.js';
import type { KvEngine } from '../../../src/kv/index.js';
import type { KvLedger } from './kv-ledger.js';

/**
 * The mutating KV operations as a catalog, for the random sequences and the races: each one sends its request through
 * `handle()` and records in the ledger what it attempted and what was acknowledged.
 */

export const MERGE = { 'Content-Type': 'application/merge-patch+json' };
export const JSON_PATCH = { 'Content-Type': 'application/json-patch+json' };

type KvWriteName = 'write' | 'casWrite' | 'mergePatch' | 'jsonPatch';
type KvChangeName =
  | 'deleteLatest'
  | 'deleteVersions'
  | 'undelete'
  | 'destroy'
  | 'metadataWrite'
  | 'metadataPatch'
  | 'metadataDelete'
  | 'config';
export type KvOperationName = KvWriteName | KvChangeName;

export const KV_OPERATIONS: readonly KvOperationName[] = [
  'write',
  'casWrite',
  'mergePatch',
  'jsonPatch',
  'deleteLatest',
  'deleteVersions',
  'undelete',
  'destroy',
  'metadataWrite',
  'metadataPatch',
  'metadataDelete',
  'config',
];

export interface KvStep {
  operation: KvOperationName;
  key: string;
  /** Drives the choice of versions and settings, so a step replays exactly. */
  pick: number;
}

/** An answer the campaign accepts: success, a cas refusal, a 404 for a missing key, or 500 for an injected fault. */
export function acceptable(response: EngineResponse, faulty: boolean): boolean {
  const { status } = response;
  if (status === 500) return faulty;
  return status < 300 || status === 400 || status === 404;
}

async function currentVersion(kv: KvEngine, key: string): Promise<number> {
  const response = await kv.handle({ method: 'GET', path: `metadata/${key}` });
  return response.status === 200 ? (response.body as { data: { current_version: number } }).data.current_version : 0;
}

function versionsAround(current: number, pick: number): number[] {
  return [Math.max(1, current - (pick % 3)), current + 1 - (pick % 2)].filter((version) => version > 0);
}

async function changeRequest(kv: KvEngine, operation: KvChangeName, { key, pick }: KvStep): Promise<EngineRequest> {
  switch (operation) {
    case 'deleteLatest':
      return { method: 'DELETE', path: `data/${key}` };
    case 'deleteVersions':
      return {
        method: 'POST',
        path: `delete/${key}`,
        body: { versions: versionsAround(await currentVersion(kv, key), pick) },
      };
    case 'undelete':
      return {
        method: 'POST',
        path: `undelete/${key}`,
        body: { versions: versionsAround(await currentVersion(kv, key), pick) },
      };
    case 'destroy':
      return {
        method: 'PUT',
        path: `destroy/${key}`,
        body: { versions: versionsAround(await currentVersion(kv, key), pick + 1) },
      };
    case 'metadataWrite':
      return {
        method: 'POST',
        path: `metadata/${key}`,
        body: { max_versions: 2 + (pick % 4), custom_metadata: { pick: String(pick) } },
      };
    case 'metadataPatch':
      return {
        method: 'PATCH',
        path: `metadata/${key}`,
        headers: MERGE,
        body: { custom_metadata: { [`m${pick % 3}`]: pick % 2 ? 'x' : null } },
      };
    case 'metadataDelete':
      return { method: 'DELETE', path: `metadata/${key}` };
    case 'config':
      return {
        method: 'POST',
        path: 'config',
        body: { max_versions: 3 + (pick % 5), delete_version_after: pick % 2 ? '1h' : '0s' },
      };
  }
}

async function writeRequest(
  kv: KvEngine,
  operation: KvWriteName,
  { key, pick }: KvStep,
  tag: string,
): Promise<EngineRequest> {
  if (operation === 'write') return { method: 'POST', path: `data/${key}`, body: { data: { tag, pick } } };
  if (operation === 'casWrite') {
    return {
      method: 'POST',
      path: `data/${key}`,
      body: { data: { tag }, options: { cas: await currentVersion(kv, key) } },
    };
  }
  if (operation === 'mergePatch')
    return { method: 'PATCH', path: `data/${key}`, headers: MERGE, body: { data: { tag, [`p${pick % 4}`]: pick } } };
  return {
    method: 'PATCH',
    path: `data/${key}`,
    headers: JSON_PATCH,
    body: {
      data: [
        { op: 'add', path: '/tag', value: tag },
        { op: 'add', path: `/j${pick % 4}`, value: [pick] },
      ],
    },
  };
}

const WRITES: readonly string[] = ['write', 'casWrite', 'mergePatch', 'jsonPatch'] satisfies KvWriteName[];

function isWrite(operation: KvOperationName): operation is KvWriteName {
  return WRITES.includes(operation);
}

/**
 * Runs one step and records it; answers the response so the caller can judge it. Steps that depend on the current
 * version read it through `reader` first (a clean engine, when a sweep must not count those reads).
 */
export async function runKvStep(kv: KvEngine, step: KvStep, ledger: KvLedger, reader = kv): Promise<EngineResponse> {
  const { operation } = step;
  if (!isWrite(operation)) {
    const finished = operation === 'metadataDelete' ? ledger.reset(step.key) : undefined;
    const response = await kv.handle(await changeRequest(reader, operation, step));
    finished?.();
    return response;
  }
  const write = ledger.issue(step.key);
  const response = await kv.handle(await writeRequest(reader, operation, step, write.tag));
  if (response.status === 200)
    ledger.acknowledged(step.key, write, (response.body as { data: { version: number } }).data.version);
  return response;
}
