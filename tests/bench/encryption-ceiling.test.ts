// The encrypted write's ceiling row writes out by hand the steps the barrier's rules add to a KV write. It proves
// something only while those steps are the barrier's: its sealed values must be values the barrier opens, and a KV
// write through the barrier must make exactly the storage calls the ceiling accounts for.
import { createSecretKey, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EncryptedStorage, KvEngine, MemoryStorage, SealedValueInvalid } from '../../src/index.js';
import { open } from '../../src/encryption/sealed-value.js';
// @ts-expect-error: the bench is plain JavaScript, without declarations.
import { bareSealer, plainWriteWithBarrierSteps } from '../../bench/encryption.mjs';
// @ts-expect-error: the bench is plain JavaScript, without declarations.
import { recordingStorage } from '../../bench/recorded-calls.mjs';
// @ts-expect-error: the bench is plain JavaScript, without declarations.
import { fillVersions, keyPath, kvWrite, storedKeys } from '../../bench/harness/fixtures.mjs';

interface Call {
  member: string;
  args: [string | { type: string; key: string; expected?: unknown }[]];
}

/** A call as `get <key>`, or a commit as its operations (`?`: conditioned). */
function shapeOf(call: Call): string {
  const [first] = call.args;
  if (typeof first === 'string') return `${call.member} ${first}`;
  return first.map((operation) => `${operation.type}${operation.expected === undefined ? '' : '?'}`).join(',');
}

describe('the ceiling of the encrypted write (bench/encryption.mjs)', () => {
  it('assembles each value as the barrier stores it: it opens under its key, bound to its storage key', () => {
    const key = createSecretKey(randomBytes(32));
    const seal = bareSealer('kv/metadata/app', key);
    const plaintext = new Uint8Array(randomBytes(300));
    const sealed = new Uint8Array(33 + plaintext.length);
    const additional = new Uint8Array([1, 0, 0, 0, 1, ...new TextEncoder().encode('kv/versions/ab/x')]);
    seal(plaintext, sealed, additional);
    expect(open(key, sealed, 'kv/versions/ab/x')).toEqual(plaintext);
    expect(() => open(key, sealed, 'kv/metadata/app')).toThrow(SealedValueInvalid);
  });

  it('accounts for every storage call of a write through the barrier: one read with a value, one commit, the keyring', async () => {
    const inner = new MemoryStorage();
    const recorder = recordingStorage(inner);
    const kv = new KvEngine({ storage: new EncryptedStorage({ storage: recorder.storage, key: randomBytes(32) }) });
    await fillVersions(kv, keyPath(0), 10);
    const write = kvWrite(kv, keyPath(0));
    await write();
    const calls: Call[] = await recorder.record(write);
    expect(calls.map(shapeOf)).toEqual([
      'get kv/config',
      `get kv/metadata/${keyPath(0)}`,
      'put?,put?,delete',
      'get .encryption/keyring',
    ]);
    // The config read finds nothing, so the barrier recognises and copies one value per write: the key's record.
    expect(await inner.get('kv/config')).toBeUndefined();
  });

  it('performs the plain write itself, adding steps but no storage call', async () => {
    const inner = new MemoryStorage();
    const recorder = recordingStorage(inner);
    const kv = new KvEngine({ storage: recorder.storage });
    await fillVersions(kv, keyPath(0), 10);
    const steps = await plainWriteWithBarrierSteps(inner, kv, keyPath(0));
    const before = (await storedKeys(inner, keyPath(0))).record.current_version;
    const calls: Call[] = await recorder.record(steps);
    expect(calls.map((call) => call.member)).toEqual(['get', 'get', 'commit']);
    expect((await storedKeys(inner, keyPath(0))).record.current_version).toBe(before + 1);
  });
});
