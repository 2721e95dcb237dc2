// Policies in JSON form are read member by member, so a path named twice is two stanzas that merge exactly as two HCL
// blocks do (Vault reads JSON policies with HCL's reader, which keeps every member). JSON.parse kept only the last
// stanza, so `{"path": {"a": {"capabilities": ["deny"]}, "a": {"capabilities": ["read"]}}}` granted read.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Acl, parsePolicy, type RequiredCapability } from '../../src/acl/index.js';
import { MAX_NESTING } from '../../src/acl/hcl.js';
import { JsonMembers, readJson, type JsonValue } from '../../src/acl/policy-json.js';
import { InvalidRequest } from '../../src/lib/errors.js';

const ALL: RequiredCapability[] = ['create', 'read', 'update', 'patch', 'delete', 'list', 'sudo'];

/** What JSON.parse makes of a document without repeated keys. */
function plain(value: JsonValue): unknown {
  if (value instanceof JsonMembers)
    return Object.fromEntries(value.members.map(([key, member]) => [key, plain(member)]));
  return Array.isArray(value) ? value.map(plain) : value;
}

function outcome(read: () => unknown): unknown {
  try {
    return { value: read() };
  } catch (error) {
    return {
      error:
        error instanceof InvalidRequest
          ? 'InvalidRequest'
          : error instanceof SyntaxError
            ? 'SyntaxError'
            : String(error),
    };
  }
}

describe('readJson', () => {
  it('keeps every member in order, repeated keys included', () => {
    const document = readJson(' {"a": 1, "b": [true, false, null], "a": {"c": "d"}} ');
    expect(document).toEqual(
      new JsonMembers([
        ['a', 1],
        ['b', [true, false, null]],
        ['a', new JsonMembers([['c', 'd']])],
      ]),
    );
  });

  it('takes any run of JSON white space between tokens', () => {
    const text = ' \t\r\n{ \n\n"a"\t\t:\r\n [ 1 ,\n\n 2 ]  ,  "b" :  null  }\n\n';
    expect(plain(readJson(text))).toEqual(JSON.parse(text));
  });

  it('reads what JSON.parse reads, the same way (documents without repeated keys)', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(plain(readJson(text))).toEqual(JSON.parse(text));
      }),
      { seed: 20_270_027, numRuns: 300 },
    );
  });

  it('refuses, with InvalidRequest, exactly what JSON.parse refuses', () => {
    const damaged = fc
      .tuple(
        fc.json(),
        fc.nat(),
        fc.nat(3),
        fc.constantFrom('', '"', '\\', ',', ':', '}', ']', '{', '[', '0', '-', 'e', '\u0001'),
      )
      .map(
        ([text, at, cut, insert]) =>
          text.slice(0, at % (text.length + 1)) + insert + text.slice((at % (text.length + 1)) + cut),
      );
    fc.assert(
      fc.property(fc.oneof(damaged, fc.string()), (text) => {
        const native = outcome(() => JSON.parse(text));
        const ours = outcome(() => plain(readJson(text)));
        // A repeated key keeps its last value in both (plain() builds the object the way JSON.parse does).
        expect(ours).toEqual('error' in (native as object) ? { error: 'InvalidRequest' } : native);
      }),
      { seed: 20_270_027, numRuns: 500 },
    );
  });

  it.each([
    ['{"a": 1,}', /expected a string key, found "}" at position 8/],
    ['{"a" 1}', /expected ":", found "1"/],
    ['[1 2]', /expected "]", found "2"/],
    ['{"a": "\\x"}', /invalid string "\\x"/],
    ['{"a": "\\u12"}', /invalid string/],
    ['{"a": tru}', /expected a value/],
    ['{"a": 01}', /expected "}", found "1"/],
    ['{"a": 1} x', /unexpected text after the document/],
    // A control character inside a string, here a line break.
    ['{"a": "line\nbreak"}', /expected a value, found "\\"" at position 6/],
    ['{', /expected a string key, found end of input/],
  ])('refuses %j naming the problem', (text, message) => {
    expect(() => readJson(text)).toThrow(InvalidRequest);
    expect(() => readJson(text)).toThrow(message);
  });

  it(`reads ${MAX_NESTING} levels of nesting below the document and refuses one more`, () => {
    const nested = (levels: number) => `${'['.repeat(levels + 1)}${']'.repeat(levels + 1)}`;
    expect(() => readJson(nested(MAX_NESTING))).not.toThrow();
    expect(() => readJson(nested(MAX_NESTING + 1))).toThrow(/nesting too deep/);
    // Objects count the same way.
    const objects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    expect(() => readJson(objects(MAX_NESTING))).not.toThrow();
    expect(() => readJson(objects(MAX_NESTING + 1))).toThrow(/nesting too deep/);
  });
});

describe('parsePolicy: a JSON policy naming a path twice', () => {
  const allowFirst = '{"path": {"s/*": {"capabilities": ["read", "list"]}, "s/*": {"capabilities": ["deny"]}}}';
  const denyFirst = '{"path": {"s/*": {"capabilities": ["deny"]}, "s/*": {"capabilities": ["read", "list"]}}}';

  it.each([allowFirst, denyFirst])('keeps both stanzas, and the deny wins: %s', (text) => {
    expect(parsePolicy(text)).toHaveLength(2);
    const acl = new Acl([{ name: 'p', rules: parsePolicy(text) }]);
    expect(ALL.filter((capability) => acl.allows(capability, 's/x'))).toEqual([]);
  });

  it('merges exactly like the HCL policy with the same blocks', () => {
    const json =
      '{"path": {"a": {"capabilities": ["read"]}, "a": {"capabilities": ["update"], "capabilities": ["patch"]}}, "path": [{"a": {"policy": "deny"}}]}';
    const hcl =
      'path "a" { capabilities = ["read"] }\npath "a" {\n capabilities = ["update"]\n capabilities = ["patch"] }\npath "a" { policy = "deny" }';
    expect(parsePolicy(json)).toEqual(parsePolicy(hcl));
    expect(parsePolicy(json)).toEqual([
      { path: 'a', capabilities: ['read'] },
      { path: 'a', capabilities: ['update', 'patch'] },
      { path: 'a', capabilities: ['deny'] },
    ]);
  });

  it('adds up the grants of the two stanzas', () => {
    const acl = new Acl([
      {
        name: 'p',
        rules: parsePolicy('{"path": {"a": {"capabilities": ["read"]}, "a": {"capabilities": ["update"]}}}'),
      },
    ]);
    expect(ALL.filter((capability) => acl.allows(capability, 'a'))).toEqual(['read', 'update']);
  });

  it('an HCL policy and its JSON twin agree, repeated paths included', () => {
    const path = fc.constantFrom('a', 'a/*', 'a/+/b', 'b');
    const rule = fc.record({ path, capabilities: fc.subarray(['deny', ...ALL] as const) });
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 6 }), (rules) => {
        const hcl = rules
          .map((r) => `path ${JSON.stringify(r.path)} { capabilities = ${JSON.stringify(r.capabilities)} }`)
          .join('\n');
        const json = `{"path": {${rules.map((r) => `${JSON.stringify(r.path)}: {"capabilities": ${JSON.stringify(r.capabilities)}}`).join(', ')}}}`;
        expect(parsePolicy(json)).toEqual(parsePolicy(hcl));
      }),
      { seed: 20_270_027 },
    );
  });
});
