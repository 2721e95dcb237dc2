import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InvalidRequest } from '../../src/lib/errors.js';
import { MAX_PATH_LENGTH, validatePath } from '../../src/core/framework/path.js';
import { AuthMethod, KvEngine } from '../../src/index.js';
import { testStorage } from '../support/test-storage.js';

/** The path rules, spelled out plainly: what validatePath's shortcut for plain paths must agree with. */
function allowed(path: string): boolean {
  if (path.length > MAX_PATH_LENGTH) return false;
  for (let index = 0; index < path.length; index++) {
    const code = path.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return false;
    const high = code >= 0xd800 && code <= 0xdbff;
    const low = code >= 0xdc00 && code <= 0xdfff;
    if (high && !((path.charCodeAt(index + 1) & 0xfc00) === 0xdc00)) return false;
    if (low && !(index > 0 && (path.charCodeAt(index - 1) & 0xfc00) === 0xd800)) return false;
    if (high) index++;
  }
  if (path === '') return true;
  const segments = (path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  return segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

function accepts(path: string): boolean {
  try {
    validatePath(path);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequest);
    return false;
  }
}

describe('validatePath', () => {
  it('agrees with the plain rules on paths built from the characters that matter', () => {
    const character = fc.constantFrom(
      'a',
      'Z',
      '0',
      '_',
      '-',
      '.',
      '/',
      ' ',
      '\n',
      '\u007f',
      '\u00e9',
      '\ud800',
      '\udc00',
      '\ud83d\ude00',
    );
    fc.assert(
      fc.property(fc.array(character, { maxLength: 12 }), (characters) => {
        const path = characters.join('');
        expect(accepts(path)).toBe(allowed(path));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['login', true],
    ['data/app/db', true],
    ['metadata/app/', true],
    ['', true],
    ['a//b', false],
    ['/a', false],
    ['a/..', false],
    ['a/./b', false],
    ['a/b//', false],
    ['x'.repeat(MAX_PATH_LENGTH), true],
    ['x'.repeat(MAX_PATH_LENGTH + 1), false],
  ])('%j: %s', (path, expected) => {
    expect(accepts(path)).toBe(expected);
  });
});

describe('a path written from the server root', () => {
  it('is refused with the rule a caller mounting an engine in a framework needs: relative to the mount', async () => {
    const kv = new KvEngine({ storage: testStorage() });
    const auth = new AuthMethod({ storage: testStorage(), env: {} });
    const refusal = (path: string) => ({
      status: 400,
      body: {
        errors: [`invalid path ${JSON.stringify(path)}: a path is relative to the mount and never starts with '/'`],
      },
    });
    expect(await kv.handle({ method: 'GET', path: '/data/app/db' })).toEqual(refusal('/data/app/db'));
    expect(await kv.handle({ method: 'LIST', path: '/metadata/' })).toEqual(refusal('/metadata/'));
    expect(await auth.handle({ method: 'POST', path: '/login', body: {} })).toEqual(refusal('/login'));
    await expect(kv.read('/app/db')).rejects.toThrow(
      new InvalidRequest(`invalid path "/app/db": a path is relative to the mount and never starts with '/'`),
    );
    // An empty segment elsewhere keeps its own message.
    expect((await kv.handle({ method: 'GET', path: 'data//db' })).body).toEqual({
      errors: [`invalid path "data//db": empty path segment`],
    });
  });
});
