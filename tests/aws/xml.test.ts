import { describe, expect, it } from 'vitest';
import { parseArn } from '../../src/adapters/aws/arn.js';
import { encodeForm } from '../../src/adapters/aws/api/query-api.js';
import { child, entries, parseXml, text } from '../../src/adapters/aws/api/xml.js';
import { InvalidRequest } from '../../src/lib/errors.js';

describe('AWS XML reading', () => {
  it('keeps values as strings (leading zeros, numbers, booleans) and single list members as lists', () => {
    const document = parseXml(
      '<R xmlns="x"><Account>000123456789</Account><Code>16</Code><T>true</T><Roles><member><Arn>a</Arn></member></Roles></R>',
    );
    expect(text(document, 'R', 'Account')).toBe('000123456789');
    expect(text(document, 'R', 'Code')).toBe('16');
    expect(text(document, 'R', 'T')).toBe('true');
    expect(entries(child(document, 'R'), 'Roles')).toEqual([{ Arn: 'a' }]);
  });

  it('treats empty elements, missing paths and inherited properties as absent', () => {
    const document = parseXml('<R><vpcId/><a>x</a></R>');
    expect(text(document, 'R', 'vpcId')).toBeUndefined();
    expect(text(document, 'R', 'b', 'c')).toBeUndefined();
    expect(child(document, 'R', 'constructor')).toBeUndefined();
    expect(entries(document, 'R', 'nothing')).toEqual([]);
  });

  it('decodes entities and rejects non-XML', () => {
    expect(text(parseXml('<M>a &amp; b &lt;c&gt;</M>'), 'M')).toBe('a & b <c>');
    expect(parseXml('{"not":"xml"}')).toBeUndefined();
    expect(parseXml('<!DOCTYPE r [<!ENTITY a "aaaa">]><r>&a;&a;</r>')).toBeUndefined();
  });

  it('encodes form bodies the way SigV4 canonicalises them', () => {
    expect(
      encodeForm([
        ['Action', 'AssumeRole'],
        ['RoleSessionName', "a b*c!'()~"],
      ]),
    ).toBe('Action=AssumeRole&RoleSessionName=a%20b%2Ac%21%27%28%29~');
  });
});

describe('parseArn', () => {
  it('extracts partition, account, type and friendly name', () => {
    expect(parseArn('arn:aws:iam::012345678901:user/path/to/alice')).toEqual({
      partition: 'aws',
      accountId: '012345678901',
      type: 'user',
      name: 'alice',
    });
    expect(parseArn('arn:aws-cn:sts::012345678901:assumed-role/web/i-1')).toMatchObject({
      type: 'assumed-role',
      name: 'web',
    });
  });

  it('refuses malformed ARNs', () => {
    for (const arn of [
      '',
      'arn:aws:iam',
      'arn:aws:iam::012345678901:role',
      'arn:aws:ec2::012345678901:role/x',
      'arn:aws:iam::12:role/x',
      'arn:aws-mars:iam::012345678901:role/x',
    ]) {
      expect(() => parseArn(arn)).toThrow(InvalidRequest);
    }
  });
});
