import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  EncryptedStorage,
  KvEngine,
  MemoryStorage,
  SealedValueInvalid,
  UnknownKeyTerm,
  WrongRootKey,
  type EngineResponse,
} from '../../src/index.js';

/** A KV engine over the barrier over memory, holding two secrets, with the faults it reports. */
async function setup() {
  const inner = new MemoryStorage();
  const rootKey = randomBytes(32);
  const storage = new EncryptedStorage({ storage: inner, key: rootKey });
  const faults: unknown[] = [];
  const kv = new KvEngine({ storage, onInternalError: (error) => faults.push(error) });
  for (const [path, password] of [
    ['app', 'first-secret'],
    ['other', 'second-secret'],
  ]) {
    await kv.handle({ method: 'POST', path: `data/${path}`, body: { data: { password } } });
  }
  const read = (path: string) => kv.handle({ method: 'GET', path: `data/${path}` });
  // The stored key of a secret's newest version: the one whose opened value holds the password.
  const dataKeyOf = async (password: string) => {
    for (const key of await inner.listPage('', { recursive: true, limit: 1000 })) {
      if (key.startsWith('.encryption/')) continue;
      if (Buffer.from((await storage.get(key))!).includes(password)) return key;
    }
    throw new Error(`no stored entry holds ${password}`);
  };
  return { inner, rootKey, storage, faults, kv, read, dataKeyOf };
}

const passwordOf = (response: EngineResponse) =>
  (response.body as { data: { data: { password: string } } }).data.data.password;

type Tamper = (stored: Uint8Array, context: { other: Uint8Array }) => Uint8Array;

const tampers: [string, Tamper, new (...args: never[]) => Error, string][] = [
  [
    'a flipped bit in the ciphertext',
    (stored) => {
      const copy = Buffer.from(stored);
      copy[20]! ^= 0x01;
      return copy;
    },
    SealedValueInvalid,
    'ERR_SEALED_VALUE_INVALID',
  ],
  [
    'a flipped bit in the tag',
    (stored) => {
      const copy = Buffer.from(stored);
      copy[copy.length - 1]! ^= 0x80;
      return copy;
    },
    SealedValueInvalid,
    'ERR_SEALED_VALUE_INVALID',
  ],
  ['a truncated value', (stored) => stored.slice(0, stored.length - 7), SealedValueInvalid, 'ERR_SEALED_VALUE_INVALID'],
  ['a value cut to its header', (stored) => stored.slice(0, 9), SealedValueInvalid, 'ERR_SEALED_VALUE_INVALID'],
  ['an empty value', () => new Uint8Array(0), SealedValueInvalid, 'ERR_SEALED_VALUE_INVALID'],
  [
    'a value swapped in from another key',
    (_stored, { other }) => other,
    SealedValueInvalid,
    'ERR_SEALED_VALUE_INVALID',
  ],
  [
    'an unknown format version',
    (stored) => {
      const copy = Buffer.from(stored);
      copy[0] = 2;
      return copy;
    },
    SealedValueInvalid,
    'ERR_SEALED_VALUE_INVALID',
  ],
  ['a plaintext value', () => Buffer.from('{"data":{"password":"x"}}'), SealedValueInvalid, 'ERR_SEALED_VALUE_INVALID'],
  [
    'an unknown key term',
    (stored) => {
      const copy = Buffer.from(stored);
      copy.writeUInt32BE(77, 1);
      return copy;
    },
    UnknownKeyTerm,
    'ERR_UNKNOWN_KEY_TERM',
  ],
];

describe('tampered stored values', () => {
  it.each(tampers)(
    '%s: a typed error, a 500 through onInternalError, and everything else intact',
    async (_name, tamper, type, code) => {
      const { inner, faults, read, dataKeyOf } = await setup();
      const key = await dataKeyOf('first-secret');
      const original = (await inner.get(key))!;
      const other = (await inner.get(await dataKeyOf('second-secret')))!;
      const tampered = tamper(original, { other });
      await inner.put(key, tampered);

      const response = await read('app');
      expect(response.status).toBe(500);
      expect(JSON.stringify(response.body)).not.toContain('first-secret');
      expect(faults).toHaveLength(1);
      expect(faults[0]).toBeInstanceOf(type);
      expect((faults[0] as { code: string }).code).toBe(code);
      // Never served, never "repaired": the stored bytes are as the attacker left them, the other secret still reads.
      expect(Buffer.from((await inner.get(key))!).equals(Buffer.from(tampered))).toBe(true);
      expect(passwordOf(await read('other'))).toBe('second-secret');
      await inner.put(key, original);
      expect(passwordOf(await read('app'))).toBe('first-secret');
    },
  );

  it('an old value replayed under a term it was not sealed with fails to open', async () => {
    const { inner, storage, faults, read, dataKeyOf } = await setup();
    const key = await dataKeyOf('first-secret');
    await storage.rotate();
    const original = Buffer.from((await inner.get(key))!);
    const relabelled = Buffer.from(original);
    relabelled.writeUInt32BE(2, 1);
    await inner.put(key, relabelled);
    expect((await read('app')).status).toBe(500);
    expect(faults[0]).toBeInstanceOf(SealedValueInvalid);
  });
});

describe('a wrong root key', () => {
  it('fails at open with a clear message, answers 500, and leaves the data readable with the right key', async () => {
    const { inner, rootKey } = await setup();
    const before = await inner.listPage('', { recursive: true, limit: 1000 });
    const wrong = new EncryptedStorage({ storage: inner, key: randomBytes(32) });
    await expect(wrong.open()).rejects.toThrow(WrongRootKey);
    await expect(wrong.open()).rejects.toThrow(/root key does not open the stored keyring/);

    const faults: unknown[] = [];
    const kv = new KvEngine({ storage: wrong, onInternalError: (error) => faults.push(error) });
    const answers = [
      await kv.handle({ method: 'GET', path: 'data/app' }),
      await kv.handle({ method: 'POST', path: 'data/app', body: { data: { password: 'overwrite' } } }),
      await kv.handle({ method: 'DELETE', path: 'metadata/other' }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([500, 500, 500]);
    expect(faults.every((fault) => fault instanceof WrongRootKey)).toBe(true);
    expect(await inner.listPage('', { recursive: true, limit: 1000 })).toEqual(before);

    const right = new KvEngine({ storage: new EncryptedStorage({ storage: inner, key: rootKey }) });
    expect(passwordOf(await right.handle({ method: 'GET', path: 'data/app' }))).toBe('first-secret');
    expect(passwordOf(await right.handle({ method: 'GET', path: 'data/other' }))).toBe('second-secret');
  });

  it('a tampered keyring is a typed error too', async () => {
    const { inner, rootKey } = await setup();
    const record = Buffer.from((await inner.get('.encryption/keyring'))!);
    record[record.length - 3]! ^= 0x10;
    await inner.put('.encryption/keyring', record);
    await expect(new EncryptedStorage({ storage: inner, key: rootKey }).open()).rejects.toThrow(SealedValueInvalid);
  });
});
