import { parseRoleTag, canonicalRoleTag } from '../../../src/auth/roles/role-tag.js';
import { isPlainObject } from '../../../src/core/framework/fields.js';
import { parseTimestamp } from '../../../src/lib/time.js';
import type { Storage } from '../../../src/ports/storage.js';

/**
 * The cross-cutting invariants, read straight from storage (not through an engine, which could hide a broken record
 * behind a retry or a 404). Each checker answers the list of problems found, so a failing test names them all.
 */

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Every leaf key below `prefix` (which is '' or ends in '/'). */
export async function allKeys(storage: Storage, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await storage.list(prefix)) {
    if (name.endsWith('/')) found.push(...(await allKeys(storage, prefix + name)));
    else found.push(prefix + name);
  }
  return found;
}

/** The stored documents below `prefix`, decoded, by key: the whole observable state for before/after comparisons. */
export async function snapshot(storage: Storage, prefix = ''): Promise<Record<string, string>> {
  const state: Record<string, string> = {};
  for (const key of await allKeys(storage, prefix)) {
    const bytes = await storage.get(key);
    if (bytes !== undefined) state[key] = Buffer.from(bytes).toString('utf8');
  }
  return state;
}

async function document(
  storage: Storage,
  key: string,
  problems: string[],
): Promise<Record<string, unknown> | undefined> {
  const bytes = await storage.get(key);
  if (bytes === undefined) {
    problems.push(`${key}: listed but unreadable`);
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(decoder.decode(bytes));
    if (isPlainObject(value)) return value;
    problems.push(`${key}: not a JSON object`);
  } catch {
    problems.push(`${key}: not JSON`);
  }
  return undefined;
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isText = (value: unknown): value is string => typeof value === 'string';
const isTextList = (value: unknown): value is string[] => Array.isArray(value) && value.every(isText);
const isTime = (value: unknown): boolean => isText(value) && parseTimestamp(value) !== undefined;

function expectShape(
  key: string,
  record: Record<string, unknown>,
  shape: Record<string, (value: unknown) => boolean>,
  problems: string[],
): void {
  for (const [field, valid] of Object.entries(shape)) {
    if (!valid(record[field])) problems.push(`${key}: field ${field} is ${JSON.stringify(record[field])}`);
  }
}

/** The folder of a KV key's entry documents (versions no longer inline in its head record). */
export function kvEntryFolder(prefix: string, path: string): string {
  return `${prefix}entries/${path}/`;
}

const isCountList = (value: unknown): value is number[] => Array.isArray(value) && value.every(isCount);

export interface KvKeyState {
  record: Record<string, unknown>;
  /** Every kept version's entry, ascending: inline in the head record where it is, else its entry document. */
  versions: Record<string, unknown>[];
}

/**
 * A KV key as stored: its head record and the authoritative entry of every kept version. A kept version that is not
 * inline and has no entry document is a problem (a version the head promises but nothing describes).
 */
export async function kvKeyState(
  storage: Storage,
  prefix: string,
  path: string,
  problems: string[] = [],
): Promise<KvKeyState | undefined> {
  const key = `${prefix}metadata/${path}`;
  if ((await storage.get(key)) === undefined) return undefined;
  const record = await document(storage, key, problems);
  if (!record) return undefined;
  const { current_version: current, oldest_version: oldest, versions: inline } = record;
  if (!isCount(current) || !isCount(oldest) || !Array.isArray(inline)) {
    problems.push(`${key}: current_version, oldest_version or versions malformed`);
    return { record, versions: [] };
  }
  const byVersion = new Map<number, Record<string, unknown>>();
  for (const entry of inline as Record<string, unknown>[])
    if (isCount(entry.version)) byVersion.set(entry.version, entry);
  for (let version = Math.max(oldest, 1); version <= current; version++) {
    if (byVersion.has(version)) continue;
    const entryKey = `${kvEntryFolder(prefix, path)}${version}`;
    if ((await storage.get(entryKey)) === undefined) {
      problems.push(`${key}@${version}: neither inline nor in an entry document`);
      continue;
    }
    const entry = await document(storage, entryKey, problems);
    if (entry && (entry.version !== version || !isText(entry.write)))
      problems.push(`${entryKey}: not the entry of version ${version}`);
    if (entry) byVersion.set(version, entry);
  }
  return { record, versions: [...byVersion.values()].sort((a, b) => (a.version as number) - (b.version as number)) };
}

/** Whether a version keeps its data in its entry document (from the head's documents_from on), not in a blob. */
function dataInDocument(record: Record<string, unknown>, version: unknown): boolean {
  const from = record.documents_from;
  return isCount(from) && from > 0 && isCount(version) && version >= from;
}

/**
 * The data a kept version holds, decoded (undefined where it is missing): from its entry document for a version that
 * keeps it there, else from its blob. Undefined as a whole for a version that references no data (destroyed).
 */
export async function kvVersionData(
  storage: Storage,
  prefix: string,
  path: string,
  record: Record<string, unknown>,
  entry: Record<string, unknown>,
): Promise<{ value: unknown } | undefined> {
  if (dataInDocument(record, entry.version) && entry.destroyed !== true) {
    const bytes = await storage.get(`${kvEntryFolder(prefix, path)}${String(entry.version)}`);
    return { value: bytes && (JSON.parse(decoder.decode(bytes)) as Record<string, unknown>).data };
  }
  if (!isText(entry.blob)) return undefined;
  const bytes = await storage.get(`${prefix}versions/${entry.blob.slice(0, 2)}/${entry.blob}`);
  return { value: bytes && JSON.parse(decoder.decode(bytes)) };
}

/**
 * Versions that keep their data in their entry document: the document exists (inline or not), describes the entry
 * the head holds, and holds the data exactly while the version is not destroyed.
 */
async function checkDataDocuments(
  storage: Storage,
  prefix: string,
  path: string,
  state: KvKeyState,
  problems: string[],
): Promise<void> {
  const { record } = state;
  if (record.documents_from !== undefined && !isCount(record.documents_from))
    problems.push(`${prefix}metadata/${path}: documents_from malformed`);
  for (const entry of state.versions) {
    if (!dataInDocument(record, entry.version)) continue;
    const entryKey = `${kvEntryFolder(prefix, path)}${String(entry.version)}`;
    if ((await storage.get(entryKey)) === undefined) {
      problems.push(`${entryKey}: missing, but version ${String(entry.version)} keeps its data there`);
      continue;
    }
    const stored = await document(storage, entryKey, problems);
    if (!stored) continue;
    if (
      stored.deletion !== entry.deletion ||
      stored.destroyed !== entry.destroyed ||
      stored.created !== entry.created
    ) {
      problems.push(`${entryKey}: differs from the authoritative entry of version ${String(entry.version)}`);
    }
    if (entry.destroyed === true ? stored.data !== undefined : !isPlainObject(stored.data)) {
      problems.push(
        `${entryKey}: ${entry.destroyed === true ? 'destroyed, but still holds data' : 'live, but holds no data object'}`,
      );
    }
  }
}

/** Versions of one KV key: their blobs, and the rules that tie them to current_version and oldest_version. */
function checkVersions(
  key: string,
  record: Record<string, unknown>,
  versions: Record<string, unknown>[],
  problems: string[],
): { blob: string; version: number }[] {
  const { current_version: current, oldest_version: oldest, versions: inline } = record;
  if (!isCount(current) || !isCount(oldest) || !Array.isArray(inline)) return [];
  const blobs: { blob: string; version: number }[] = [];
  let previous = 0;
  for (const entry of inline as Record<string, unknown>[]) {
    if (!isCount(entry.version) || entry.version <= previous)
      problems.push(`${key}: inline versions not strictly ascending at ${JSON.stringify(entry.version)}`);
    else previous = entry.version;
  }
  for (const entry of versions) {
    const { version, blob, destroyed } = entry;
    if (isCount(version) && (version > current || version < oldest)) {
      problems.push(`${key}: version ${version} outside oldest ${oldest} .. current ${current}`);
    }
    if (destroyed === true && blob !== undefined)
      problems.push(`${key}: destroyed version ${String(version)} still references data`);
    if (dataInDocument(record, version)) {
      if (blob !== undefined)
        problems.push(`${key}: version ${String(version)} keeps its data in its document but references a blob`);
    } else if (destroyed !== true && !isText(blob))
      problems.push(`${key}: live version ${String(version)} has no data reference`);
    if (isText(blob) && isCount(version)) blobs.push({ blob, version });
  }
  // Only a write adds versions, and pruning never removes the one it added: the newest entry is the current one, and
  // it is always inline in the head record (the commit point of every write).
  const newest = inline.length === 0 ? 0 : (inline[inline.length - 1] as { version: unknown }).version;
  if (newest !== current)
    problems.push(`${key}: newest inline version ${String(newest)} but current_version ${current}`);
  return blobs;
}

/** Blobs still referenced by the entry documents of pruned versions whose removal is pending: garbage too. */
async function retiredBlobs(
  storage: Storage,
  prefix: string,
  path: string,
  retired: number[],
  tidy: boolean,
  problems: string[],
): Promise<string[]> {
  const blobs: string[] = [];
  for (const version of retired) {
    const entryKey = `${kvEntryFolder(prefix, path)}${version}`;
    if ((await storage.get(entryKey)) === undefined) continue;
    if (tidy) problems.push(`${entryKey}: pruned entry still present after a clean change`);
    const entry = await document(storage, entryKey, problems);
    if (entry && isText(entry.blob)) blobs.push(entry.blob);
  }
  return blobs;
}

export interface KvCheckOptions {
  prefix?: string;
  /** After a clean change of every key: garbage must be gone too, so no secret data is left behind. */
  tidy?: boolean;
  /** Data no record references that a known, documented race explains (see KvLedger.racedMetadataDelete). */
  explained?: (data: unknown) => boolean;
}

/**
 * KV: every record is whole; every kept version has an entry (inline or its document); every live version's data
 * exists and is an object; no data is shared between versions; every stored blob is referenced or still listed as
 * garbage (and, when `tidy`, referenced).
 */
export async function kvProblems(storage: Storage, options: KvCheckOptions = {}): Promise<string[]> {
  const prefix = options.prefix ?? 'kv/';
  const problems: string[] = [];
  const referenced = new Map<string, string>();
  const garbage = new Set<string>();
  for (const key of await allKeys(storage, `${prefix}metadata/`)) {
    const path = key.slice(`${prefix}metadata/`.length);
    const state = await kvKeyState(storage, prefix, path, problems);
    if (!state) continue;
    const { record } = state;
    expectShape(
      key,
      record,
      {
        created: isCount,
        updated: isCount,
        max_versions: isCount,
        delete_version_after: isCount,
        revision: isCount,
        spilled: isCount,
        garbage: isTextList,
        retired: isCountList,
      },
      problems,
    );
    if (!isPlainObject(record.custom_metadata) || !Object.values(record.custom_metadata).every(isText))
      problems.push(`${key}: custom_metadata malformed`);
    await checkDataDocuments(storage, prefix, path, state, problems);
    for (const { blob, version } of checkVersions(key, record, state.versions, problems)) {
      const owner = `${key}@${version}`;
      if (referenced.has(blob)) problems.push(`${owner}: shares its data with ${referenced.get(blob)}`);
      referenced.set(blob, owner);
    }
    for (const id of isTextList(record.garbage) ? record.garbage : []) garbage.add(id);
    const retired = isCountList(record.retired) ? record.retired : [];
    for (const id of await retiredBlobs(storage, prefix, path, retired, options.tidy === true, problems))
      garbage.add(id);
  }
  for (const [blob, owner] of referenced) {
    const data = await storage.get(`${prefix}versions/${blob.slice(0, 2)}/${blob}`);
    if (data === undefined) problems.push(`${owner}: its data is missing`);
    else await document(storage, `${prefix}versions/${blob.slice(0, 2)}/${blob}`, problems);
    if (garbage.has(blob)) problems.push(`${owner}: its data is also listed as garbage`);
  }
  for (const key of await allKeys(storage, `${prefix}versions/`)) {
    const id = key.slice(key.lastIndexOf('/') + 1);
    if (referenced.has(id)) continue;
    if (garbage.has(id)) {
      if (options.tidy) problems.push(`${key}: garbage still present after a clean change`);
    } else if (!options.explained?.(await document(storage, key, problems))) {
      problems.push(`${key}: data no record references or lists as garbage (left behind for good)`);
    }
  }
  const config = await storage.get(`${prefix}config`);
  if (config !== undefined) {
    const record = await document(storage, `${prefix}config`, problems);
    if (record)
      expectShape(
        `${prefix}config`,
        record,
        {
          max_versions: isCount,
          cas_required: (v) => typeof v === 'boolean',
          delete_version_after: Number.isSafeInteger,
        },
        problems,
      );
  }
  return problems;
}

const ACCESS_LIST_ENTRY = {
  role: isText,
  client_nonce: isText,
  creation_time: isTime,
  disallow_reauthentication: (value: unknown) => typeof value === 'boolean',
  pending_time: isText,
  expiration_time: isTime,
  last_updated_time: isTime,
};

const ROLE = {
  version: isCount,
  role_id: (value: unknown) => isText(value) && value !== '',
  auth_type: (value: unknown) => value === 'ec2' || value === 'iam',
  hmac_key: (value: unknown) => isText(value) && value.length >= 32,
  bound_ami_id: isTextList,
  bound_iam_principal_arn: isTextList,
  bound_iam_principal_id: isTextList,
  token: isPlainObject,
  legacy: isPlainObject,
};

const CLIENT_CONFIG = {
  access_key: isText,
  secret_key: isText,
  endpoint: isText,
  iam_endpoint: isText,
  sts_endpoint: isText,
  sts_region: isText,
  use_sts_region_from_client: (value: unknown) => typeof value === 'boolean',
  iam_server_id_header_value: isText,
  allowed_sts_header_values: isTextList,
  max_retries: Number.isSafeInteger,
};

function denyListProblems(key: string, name: string, record: Record<string, unknown>, problems: string[]): void {
  const tag = Buffer.from(name, 'base64url').toString('utf8');
  try {
    if (canonicalRoleTag(parseRoleTag(tag)) !== tag) problems.push(`${key}: not keyed by the canonical tag`);
  } catch {
    problems.push(`${key}: its key is no role tag`);
  }
  expectShape(key, record, { creation_time: isTime, expiration_time: isTime }, problems);
  if (
    isTime(record.creation_time) &&
    isTime(record.expiration_time) &&
    String(record.creation_time) > String(record.expiration_time)
  ) {
    problems.push(`${key}: expires before it was created`);
  }
}

/** Auth: every stored document is whole and has the shape of its kind; deny-list keys are canonical tags. */
export async function authProblems(storage: Storage, prefix = 'auth/'): Promise<string[]> {
  const problems: string[] = [];
  for (const key of await allKeys(storage, prefix)) {
    const record = await document(storage, key, problems);
    if (!record) continue;
    const path = key.slice(prefix.length);
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (path.startsWith('identity-accesslist/')) expectShape(key, record, ACCESS_LIST_ENTRY, problems);
    else if (path.startsWith('roletag-denylist/')) denyListProblems(key, name, record, problems);
    else if (path.startsWith('role/')) {
      if (name !== name.toLowerCase()) problems.push(`${key}: role stored under a name that is not lower-case`);
      expectShape(key, record, ROLE, problems);
    } else if (path === 'config/client') expectShape(key, record, CLIENT_CONFIG, problems);
    else if (path.startsWith('config/tidy/')) {
      expectShape(
        key,
        record,
        { safety_buffer: isCount, disable_periodic_tidy: (value) => typeof value === 'boolean' },
        problems,
      );
    } else if (path.startsWith('config/certificate/')) {
      expectShape(
        key,
        record,
        { aws_public_cert: isText, type: (value) => value === 'pkcs7' || value === 'identity' },
        problems,
      );
    } else if (path.startsWith('config/sts/'))
      expectShape(key, record, { sts_role: (value) => isText(value) && value !== '' }, problems);
    else if (path !== 'config/identity') problems.push(`${key}: unexpected document`);
  }
  return problems;
}
