/**
 * What every write through the barrier does with the value it stores: seal a snapshot of it with the active term,
 * remember the plaintext once the write has landed, and confirm the term against the stored keyring.
 */
import { InternalError } from '../lib/errors.js';
import type { Storage } from '../ports/storage.js';
import type { Keyring } from './keyring.js';
import type { KeyringStore } from './keyring-store.js';
import { copyOf, type OpenedCache } from './opened-cache.js';
import { seal, sealInto, sealedLength } from './sealed-value.js';

/** Tries of one write against concurrent writers before it gives up. */
export const MAX_CONFLICTS = 64;

/** What a write that lost MAX_CONFLICTS races in a row answers. */
export function tooManyWriters(key: string): InternalError {
  return new InternalError(`too many concurrent writers on ${JSON.stringify(key)}`);
}

/** A value written under `term`, kept until the write is confirmed against the stored keyring. */
export interface Written {
  key: string;
  sealed: Uint8Array;
  plaintext: Uint8Array;
  term: number;
}

/** Seals a snapshot of `value`: what the cache remembers is exactly what was sealed, whatever the caller does next. */
export function sealWith(keyring: Keyring, key: string, value: Uint8Array): Written {
  const plaintext = copyOf(value);
  return { key, plaintext, term: keyring.active, sealed: seal(keyring.activeKey, keyring.active, key, plaintext) };
}

/**
 * Seals each operation's plaintext (arrays of the barrier's own; undefined stands for a delete and is skipped) with the active
 * term, into one allocation shared by the sealed values: one per commit instead of one per value. They are all
 * ciphertexts bound for the same storage in the same commit, so one reaching another through `.buffer` exposes nothing.
 */
export function sealAll(
  keyring: Keyring,
  operations: readonly { key: string }[],
  plaintexts: readonly (Uint8Array | undefined)[],
): (Written | undefined)[] {
  let total = 0;
  for (const plaintext of plaintexts) if (plaintext) total += sealedLength(plaintext);
  const memory = new ArrayBuffer(total);
  const { active, activeKey } = keyring;
  const writes: (Written | undefined)[] = [];
  let offset = 0;
  for (let index = 0; index < plaintexts.length; index++) {
    const plaintext = plaintexts[index];
    if (!plaintext) {
      writes.push(undefined);
      continue;
    }
    const out = new Uint8Array(memory, offset, sealedLength(plaintext));
    offset += out.length;
    const key = operations[index]!.key;
    writes.push({ key, plaintext, term: active, sealed: sealInto(out, activeKey, active, key, plaintext) });
  }
  return writes;
}

/** Once a write has landed, a read of what it wrote needs no decryption. */
export function remember(opened: OpenedCache, written: Written): void {
  opened.remember(written.key, written.sealed, written.plaintext, written.term);
}

/**
 * Several processes: a writer whose keyring was older than a rotation may have sealed with a term that a concurrent
 * rewrap has already passed and will retire. The keyring read after the write lands tells: a write sealed under
 * another term than the active one is sealed again (unless someone replaced it meanwhile). The term each write used
 * is what counts, not whether this process's keyring changed since: another caller may have refreshed it meanwhile.
 */
export function confirm(
  inner: Storage,
  keyring: KeyringStore,
  opened: OpenedCache,
  writes: readonly Written[],
): Promise<void> | undefined {
  if (!inner.compareAndPut || writes.length === 0) return undefined;
  return keyring.latest().then((latest) => {
    for (const write of writes) if (write.term !== latest.active) return reseal(inner, opened, latest, writes);
    return undefined;
  });
}

async function reseal(
  inner: Storage,
  opened: OpenedCache,
  keyring: Keyring,
  writes: readonly Written[],
): Promise<void> {
  for (const write of writes) {
    if (write.term === keyring.active) continue;
    const again = {
      ...write,
      term: keyring.active,
      sealed: seal(keyring.activeKey, keyring.active, write.key, write.plaintext),
    };
    if (await inner.compareAndPut!(write.key, write.sealed, again.sealed)) remember(opened, again);
  }
}
