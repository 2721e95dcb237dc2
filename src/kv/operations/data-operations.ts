import { z } from 'zod';
import { InvalidRequest, NotFound } from '../../lib/errors.js';
import { describeFieldError, int, intList, isPlainObject, object, str, typed } from '../../core/framework/fields.js';
import { unchanged } from '../../core/store/stored-json.js';
import { casOptions, checkCas } from '../rules/cas.js';
import { recordedChange } from '../changes/recorded-change.js';
import { now, type KvContext } from './context.js';
import { applyJsonPatch, jsonPatchOperations } from '../values/json-patch.js';
import type { Change, ChangeFunction, Stage } from '../store/key-change.js';
import { mergePatch } from '../values/merge-patch.js';
import { newMetadata } from '../rules/metadata.js';
import { JSON_PATCH } from '../values/patch-formats.js';
import type { StoredConfig } from '../documents/config-document.js';
import type { KvChangeOperation, StoredActor, StoredMetadata, StoredVersion } from '../documents/head-document.js';
import { parseAsOf, stateAt } from '../rules/as-of.js';
import { subkeys } from '../values/subkeys.js';
import { promiseOf } from '../../lib/calls.js';
import { checkValue, type ValueLimits } from '../values/value-limits.js';
import {
  addVersion,
  destroy,
  findVersion,
  isDestroyed,
  isHidden,
  resolveVersion,
  softDelete,
  undelete,
} from '../rules/versions.js';
import { versionMetadata, type VersionMetadata } from '../rules/views.js';
import type { Attribution } from '../rules/actors.js';

/** The operations on a key's versions: read, write, patch, subkeys, delete, undelete, destroy. */

export const readFields = z.object({
  version: int().optional().describe('The version to read; 0 or absent: the current one.'),
});
export const dataReadFields = readFields.extend({
  as_of: str()
    .optional()
    .describe(
      'An RFC 3339 time at or before now: read the version that was current then (not with `version`; see "Point in time").',
    ),
});
export const subkeysFields = readFields.extend({
  depth: int().optional().meta({
    description: 'The depth below which nothing is shown: its members are leaves; 0: no limit.',
    default: 0,
  }),
});
export const dataWriteFields = z.object({
  data: object({ nullable: false }).optional().describe("The version's data, a JSON object; required."),
  options: casOptions.optional(),
});
/** `data` is checked against the media type by the operation: an object for merge patch, operations for JSON Patch. */
export const dataPatchFields = z.object({
  data: typed(z.unknown(), 'object or list')
    .optional()
    .describe(
      'A merge patch (an object), or with `application/json-patch+json` a list of JSON Patch operations; required.',
    ),
  options: casOptions.optional(),
});
export const versionsFields = z.object({
  versions: intList()
    .optional()
    .describe('The versions to act on; required. Versions the key does not keep are ignored.'),
});

export type DataWrite = z.output<typeof dataWriteFields>;
export type DataPatch = z.output<typeof dataPatchFields>;

export type VersionRead<T> =
  | { state: 'missing' }
  /** Deleted or destroyed: only the metadata is shown. */
  | { state: 'hidden'; metadata: VersionMetadata }
  | { state: 'live'; value: T; metadata: VersionMetadata };

/** The typed methods' error for a version a read found deleted or destroyed. */
export function hiddenVersion(path: string, metadata: VersionMetadata): NotFound {
  return new NotFound(
    `version ${metadata.version} of ${JSON.stringify(path)} is ${metadata.destroyed ? 'destroyed' : 'deleted'}`,
  );
}

/** A read's version for the typed methods, which reject where the wire API answers 404. */
export function presentVersion<T>(path: string, read: VersionRead<T>): { value: T; metadata: VersionMetadata } {
  if (read.state === 'missing') throw new NotFound(`no such version of ${JSON.stringify(path)}`);
  if (read.state === 'hidden') throw hiddenVersion(path, read.metadata);
  return read;
}

type PatchStep =
  | { state: 'missing' }
  | { state: 'hidden'; metadata: VersionMetadata }
  | { state: 'written'; metadata: VersionMetadata };
export type PatchOutcome = Exclude<PatchStep, { state: 'written' }> | ({ state: 'written' } & KvWriteResult);

/** What a write or patch answers: the new version's metadata, and warnings such as a failed cleanup of old versions. */
export interface KvWriteResult {
  metadata: VersionMetadata;
  warnings: string[];
}

const NO_DATA = 'no data provided';

function requireData<T>(data: T | undefined): T {
  if (data === undefined) throw new InvalidRequest(NO_DATA);
  return data;
}

function patcher(mediaType: string, data: unknown, limits: ValueLimits): (current: Record<string, unknown>) => unknown {
  const schema = z.object({ data: mediaType === JSON_PATCH ? jsonPatchOperations : object({ nullable: false }) });
  const parsed = schema.safeParse({ data: requireData(data) });
  if (!parsed.success) throw new InvalidRequest(describeFieldError(parsed.error));
  const operations = parsed.data.data;
  return Array.isArray(operations)
    ? (current) => applyJsonPatch(current, operations, limits)
    : (current) => mergePatch(current, operations);
}

function requireVersions(versions: number[] | undefined, message: string): number[] {
  if (!versions || versions.length === 0) throw new InvalidRequest(message);
  return versions;
}

export class DataOperations {
  constructor(private readonly context: KvContext) {}

  /**
   * A version's data, shaped by `project`; no lock, but again if a concurrent prune removed the blob meanwhile. With
   * `asOfTime` (an RFC 3339 time, not with `version`), the version current then, hidden if deleted then.
   */
  read<T>(
    path: string,
    version: number | undefined,
    project: (data: Record<string, unknown>) => T,
    asOfTime?: string | Date,
  ): Promise<VersionRead<T>> {
    const { keys } = this.context;
    if (asOfTime !== undefined && version !== undefined)
      throw new InvalidRequest('as_of and version exclude each other');
    const asOf = asOfTime === undefined ? undefined : parseAsOf(asOfTime, now(this.context));
    return keys.consistent(async (): Promise<VersionRead<T>> => {
      const prefetch = version === undefined && asOf === undefined ? keys.prefetchLatest(path) : undefined;
      const key = await keys.read(path);
      const entry = key && (await this.entryAt(path, key, version, asOf));
      if (!key || !entry) return { state: 'missing' };
      const time = now(this.context);
      const metadata = versionMetadata(key, entry, time);
      // A version destroyed now, by request or by its lifetime, is gone at every time; a deletion counts as of then.
      if (isDestroyed(entry, time) || isHidden(entry, asOf ?? time)) return { state: 'hidden', metadata };
      const prefetched = prefetch?.record === key && prefetch.entry === entry ? await prefetch.data : undefined;
      return { state: 'live', value: project(prefetched ?? (await keys.data(path, key, entry))), metadata };
    });
  }

  /** The version a read names: by number, or the one current at `asOf` (undefined where none is kept). */
  private entryAt(
    path: string,
    key: StoredMetadata,
    version: number | undefined,
    asOf: number | undefined,
  ): Promise<StoredVersion | undefined> {
    const { keys } = this.context;
    return promiseOf(() =>
      asOf === undefined
        ? keys.version(path, key, resolveVersion(key, version))
        : keys.versions(path, key).then((versions) => stateAt(key, versions, asOf, now(this.context)).entry),
    );
  }

  subkeys(
    path: string,
    version: number | undefined,
    depth: number | undefined,
  ): Promise<VersionRead<Record<string, unknown>>> {
    return this.read(path, version, (data) => subkeys(data, depth ?? 0));
  }

  /** A new version; allowed over a deleted or destroyed head. `by`: who writes (Vault's `create` or `update`). */
  async write(path: string, fields: DataWrite, by?: Attribution): Promise<KvWriteResult> {
    const data = requireData(fields.data);
    const time = now(this.context);
    // Read beside the key's head rather than before it: over a network database that is one round trip less.
    const configRead = this.context.config.read();
    configRead.catch(() => undefined);
    const { result, warnings } = await recordedChange(this.context, path, 'write', async (current, stage) => {
      const config = await configRead;
      checkCas(
        fields.options?.cas,
        current?.current_version ?? 0,
        config.cas_required || current?.cas_required === true,
      );
      const actor = by?.(current ? 'update' : 'create');
      return append(current ?? newMetadata(time), data, { time, config, stage, limits: this.context.limits, actor });
    });
    return { metadata: result, warnings };
  }

  /** Applies a merge patch or JSON Patch to the current version's data, as a new version. */
  async patch(path: string, fields: DataPatch, mediaType: string, by?: Attribution): Promise<PatchOutcome> {
    const apply = patcher(mediaType, fields.data, this.context.limits);
    const time = now(this.context);
    const config = await this.context.config.read();
    const { keys } = this.context;
    const { result, warnings } = await recordedChange(
      this.context,
      path,
      'patch',
      async (current, stage): Promise<Change<PatchStep>> => {
        if (!current) return { next: unchanged, result: { state: 'missing' } };
        checkCas(fields.options?.cas, current.current_version, config.cas_required || current.cas_required);
        const head = findVersion(current, current.current_version);
        if (!head) return { next: unchanged, result: { state: 'missing' } };
        if (isHidden(head, time))
          return { next: unchanged, result: { state: 'hidden', metadata: versionMetadata(current, head, time) } };
        const patched = apply(await keys.data(path, current, head));
        if (!isPlainObject(patched)) throw new InvalidRequest('the patched data must be a JSON object');
        const limits = this.context.limits;
        const appended = await append(current, patched, { time, config, stage, limits, actor: by?.('patch') });
        return { ...appended, result: { state: 'written', metadata: appended.result } };
      },
    );
    return result.state === 'written' ? { ...result, warnings } : result;
  }

  /** Soft-deletes the current version (DELETE data/, Vault's `delete`). */
  async deleteLatest(path: string, by?: Attribution): Promise<string[]> {
    const time = now(this.context);
    const actor = by?.('delete');
    return this.changeVersions(path, 'delete', undefined, (key) => ({
      next: softDelete(key, [key.current_version], time, actor),
    }));
  }

  /** POST delete/: Vault's `update`. */
  async deleteVersions(path: string, versions: number[] | undefined, by?: Attribution): Promise<string[]> {
    const numbers = requireVersions(versions, 'No version number provided');
    const time = now(this.context);
    const actor = by?.('update');
    return this.changeVersions(path, 'delete', numbers, (key) => ({ next: softDelete(key, numbers, time, actor) }));
  }

  async undeleteVersions(path: string, versions: number[] | undefined, by?: Attribution): Promise<string[]> {
    const numbers = requireVersions(versions, 'No version number provided');
    const time = now(this.context);
    const config = await this.context.config.read();
    const actor = by?.('undelete');
    return this.changeVersions(path, 'undelete', numbers, (key) => ({
      next: undelete(key, numbers, time, config, actor),
    }));
  }

  async destroyVersions(path: string, versions: number[] | undefined): Promise<string[]> {
    const numbers = requireVersions(versions, 'no version number provided');
    return this.changeVersions(path, 'destroy', numbers, (key) => destroy(key, numbers) ?? { next: undefined });
  }

  /**
   * A change of existing versions (the current one when `numbers` is undefined); a missing key or a change that alters
   * nothing writes nothing. The changed entries go inline into the record, so a change of many versions commits at once.
   */
  private async changeVersions(
    path: string,
    operation: KvChangeOperation,
    numbers: readonly number[] | undefined,
    change: (key: StoredMetadata) => { next: StoredMetadata | undefined; dropped?: string[] },
  ): Promise<string[]> {
    const changeFunction: ChangeFunction<undefined> = async (current) => {
      const changed = current && change(current);
      return { next: changed?.next ?? unchanged, dropped: changed?.dropped, result: undefined };
    };
    const { warnings } = await recordedChange(this.context, path, operation, changeFunction, numbers);
    return warnings;
  }
}

export interface AppendContext {
  limits: ValueLimits;
  time: number;
  config: StoredConfig;
  stage: Stage;
  /** Who adds the version; undefined: unknown. */
  actor: StoredActor | undefined;
}

/** Stores the data (within the limits: a merge patch can grow a value too), then answers the record with the new version added (and older ones pruned). */
export async function append(
  key: StoredMetadata,
  data: Record<string, unknown>,
  { time, config, stage, limits, actor }: AppendContext,
): Promise<Change<VersionMetadata>> {
  checkValue(data, limits);
  const blob = await stage(data);
  const { next, added, dropped } = addVersion(key, blob, time, config, actor);
  return { next, dropped, result: versionMetadata(next, added, time) };
}
