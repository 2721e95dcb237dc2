// The hard parts of the command line's input, below the process: Go's flag rules as Vault uses them, and Vault's
// key=value forms (the spawned-command tests run each through the real command too).
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LocalError, UsageError } from '../../src/cli/client/errors.js';
import { parseFlags } from '../../src/cli/client/flags.js';
import { keyValues } from '../../src/cli/client/key-values.js';

const spec = { mount: 'string', version: 'int', 'cas-required': 'bool', policy: 'list' } as const;

describe('parseFlags', () => {
  it('takes -flag=value, --flag=value and -flag value, and stops at the first argument', () => {
    expect(parseFlags(['-mount=kv', '--version', '3', 'path', '-policy=x'], spec)).toEqual({
      flags: { mount: 'kv', version: 3 },
      args: ['path', '-policy=x'],
    });
  });

  it('takes a boolean alone or with =value, repeats a list, and keeps - and what follows -- as arguments', () => {
    expect(parseFlags(['-cas-required', '-policy=a', '-policy', 'b', '-', 'x'], spec)).toEqual({
      flags: { 'cas-required': true, policy: ['a', 'b'] },
      args: ['-', 'x'],
    });
    expect(parseFlags(['-cas-required=false', '--', '-mount=literal'], spec)).toEqual({
      flags: { 'cas-required': false },
      args: ['-mount=literal'],
    });
  });

  it('refuses an unknown flag, a missing value and a bad number or boolean', () => {
    expect(() => parseFlags(['-nope'], spec)).toThrow(new UsageError('flag provided but not defined: -nope'));
    expect(() => parseFlags(['-mount'], spec)).toThrow(UsageError);
    expect(() => parseFlags(['-version=two'], spec)).toThrow(UsageError);
    expect(() => parseFlags(['-cas-required=maybe'], spec)).toThrow(UsageError);
  });
});

describe('keyValues', () => {
  const stdin = (text: string) => Readable.from([Buffer.from(text)]);

  it('builds an object from key=value pairs, a later key winning, and reads key=- from stdin as is', async () => {
    expect(await keyValues(['a=1', 'b=x=y', 'a=2', 'c=-'], stdin('line\n'))).toEqual({ a: '2', b: 'x=y', c: 'line\n' });
  });

  it('takes a whole JSON object from stdin with -, and refuses what is not one', async () => {
    expect(await keyValues(['-', 'extra=1'], stdin('{"n": 1}'))).toEqual({ n: 1, extra: '1' });
    await expect(keyValues(['-'], stdin('[1]'))).rejects.toThrow(LocalError);
    await expect(keyValues(['-'], stdin('{nope'))).rejects.toThrow(LocalError);
    await expect(keyValues(['a=-', 'b=-'], stdin('x'))).rejects.toThrow(UsageError);
    await expect(keyValues(['=value'], stdin(''))).rejects.toThrow(UsageError);
  });
});
