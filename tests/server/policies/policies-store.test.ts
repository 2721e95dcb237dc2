// PolicyStore on its own: the names it accepts, where and how it stores a policy, what it makes of a corrupt or missing
// one, the bounded cache of compiled rules, and the listeners it tells of writes.
import { describe, expect, it } from 'vitest';
import { InvalidRequest } from '../../../src/lib/errors.js';
import { encodeJson, JsonStore } from '../../../src/core/store/stored-json.js';
import { canonicalPolicyName, PolicyStore } from '../../../src/server/policies/policy-store.js';
import { testStorage } from '../../support/test-storage.js';

const READ_A = 'path "a" { capabilities = ["read"] }';

function store() {
  const storage = testStorage();
  return { storage, policies: new PolicyStore(new JsonStore(storage)) };
}

describe('policy names', () => {
  it('are trimmed and lower-cased, at most 128 characters, without control characters or /', () => {
    expect(canonicalPolicyName('  Ops\t')).toBe('ops');
    expect(canonicalPolicyName('a'.repeat(128))).toBe('a'.repeat(128));
    expect(() => canonicalPolicyName('a'.repeat(129))).toThrow(
      new InvalidRequest('policy name must be at most 128 characters'),
    );
    expect(() => canonicalPolicyName(' \t ')).toThrow(new InvalidRequest('policy name must not be empty'));
    for (const name of ['a/b', 'a\u0000b', 'a\u001fb', 'a\u007fb']) {
      expect(() => canonicalPolicyName(name)).toThrow(
        new InvalidRequest('policy name holds a character that is not allowed'),
      );
    }
  });
});

describe('stored policies', () => {
  it('live under sys/policy/<canonical name>, text as written', async () => {
    const { storage, policies } = store();
    await policies.put(' Team ', READ_A);
    expect(JSON.parse(Buffer.from((await storage.get('sys/policy/team'))!).toString())).toEqual({
      name: 'team',
      policy: READ_A,
    });
    expect(await policies.get('TEAM')).toEqual({ name: 'team', policy: READ_A });
  });

  it('refuse a text of white space only, as one not given', async () => {
    const { policies } = store();
    await expect(policies.put('blank', ' \n\t ')).rejects.toThrow(
      new InvalidRequest("'policy' parameter not supplied or empty"),
    );
    expect(await policies.get('blank')).toBeUndefined();
  });

  it('are listed sorted, root included, folders left out', async () => {
    const { storage, policies } = store();
    for (const name of ['zeta', 'alpha']) await policies.put(name, READ_A);
    await storage.put('sys/policy/folder/inner', encodeJson({ name: 'inner', policy: READ_A }));
    expect(await policies.names()).toEqual(['alpha', 'root', 'zeta']);
  });

  it('that are corrupt are a 400 to read, and grant nothing', async () => {
    for (const corrupt of [null, 'text', { name: 1, policy: READ_A }, { name: 'bad' }, { name: 'bad', policy: 2 }]) {
      const { storage, policies } = store();
      await storage.put('sys/policy/bad', encodeJson(corrupt));
      await expect(policies.get('bad')).rejects.toThrow(
        new InvalidRequest('stored policy "sys/policy/bad" is corrupt; write it again'),
      );
      expect(await policies.policiesFor(['bad'])).toEqual([]);
    }
  });

  it('that do not exist grant nothing; root holds no rules', async () => {
    const { policies } = store();
    await policies.put('real', READ_A);
    expect(
      (await policies.policiesFor(['missing', 'real', 'root'])).map(({ name, rules }) => [name, rules.length]),
    ).toEqual([
      ['real', 1],
      ['root', 0],
    ]);
    expect((await policies.aclFor(['missing'])).allows('read', 'a')).toBe(false);
    expect((await policies.aclFor(['real'])).allows('read', 'a')).toBe(true);
  });
});

describe('compiled rules', () => {
  it('are compiled once per text, for several policies in turn', async () => {
    const { policies } = store();
    await policies.put('one', READ_A);
    await policies.put('two', 'path "b" { capabilities = ["read"] }');
    const [one, two] = await policies.policiesFor(['one', 'two']);
    const [oneAgain, twoAgain] = await policies.policiesFor(['one', 'two']);
    expect(oneAgain).toBe(one);
    expect(twoAgain).toBe(two);
    await policies.put('one', 'path "c" { capabilities = ["read"] }');
    expect((await policies.policiesFor(['one']))[0]).not.toBe(one);
  });

  it('are kept for at most 1000 texts, then compiled afresh', async () => {
    const { policies } = store();
    await policies.put('p0', 'path "p0" { capabilities = ["read"] }');
    const [first] = await policies.policiesFor(['p0']);
    const names = Array.from({ length: 999 }, (_, n) => `p${n + 1}`);
    for (const name of names) await policies.put(name, `path "${name}" { capabilities = ["read"] }`);
    await policies.policiesFor(names);
    // 1000 texts compiled: the first is still there.
    expect((await policies.policiesFor(['p0']))[0]).toBe(first);
    await policies.put('p1000', 'path "p1000" { capabilities = ["read"] }');
    await policies.policiesFor(['p1000']);
    expect((await policies.policiesFor(['p0']))[0]).not.toBe(first);
    expect((await policies.policiesFor(['p0']))[0]).toEqual(first);
  });
});

describe('change listeners', () => {
  it('are told the canonical name of each write and deletion, and the write waits for them', async () => {
    const { policies } = store();
    const told: string[] = [];
    policies.onChange(async (name) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      told.push(name);
    });
    await policies.put(' Ops ', READ_A);
    expect(told).toEqual(['ops']);
    await policies.delete('OPS');
    expect(told).toEqual(['ops', 'ops']);
  });
});
