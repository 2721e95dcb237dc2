import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InvalidRequest } from '../../../src/lib/errors.js';
import { parseIdentityDocument } from '../../../src/auth/login/ec2/identity-document.js';
import { sampleFile } from '../../support/aws-fixtures.js';
import { failure } from '../../support/failure.js';

const valid = {
  instanceId: 'i-0123456789abcdef0',
  accountId: '123456789012',
  region: 'us-gov-west-1',
  imageId: 'ami-0abc',
  pendingTime: '2024-02-03T04:05:06Z',
};
const bytes = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('instance identity document', () => {
  it.each([
    [
      'iid-verify-us-west-2-2018',
      'i-0a30e04d85e6f8793',
      '692406183521',
      'us-west-2',
      'ami-6b8cef13',
      '2018-05-09T12:30:58.000Z',
    ],
    ['pkcs7-go-us-east-1-2016', 'i-f79fe56c', '121659014334', 'us-east-1', 'ami-fce3c696', '2016-04-08T03:01:38.000Z'],
    [
      'teleport-us-west-2-2021',
      'i-078517ca8a70a1dde',
      '278576220453',
      'us-west-2',
      'ami-0fa9e1f64142cde17',
      '2021-09-03T21:25:44.000Z',
    ],
  ] as const)('reads the genuine %s document', (sample, instanceId, accountId, region, imageId, pendingTime) => {
    const document = parseIdentityDocument(Buffer.from(sampleFile(sample, 'document')));
    expect(document).toEqual({ instanceId, accountId, region, imageId, pendingTime: new Date(pendingTime) });
  });

  it('reads a document with text beyond ASCII, and one that starts with a byte order mark', () => {
    expect(parseIdentityDocument(bytes({ ...valid, instanceType: 'größer' })).instanceId).toBe(valid.instanceId);
    const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes(valid)]);
    expect(parseIdentityDocument(marked).region).toBe(valid.region);
  });

  it('reads a plain UTC pendingTime as the date parser does, whatever its digits', () => {
    // Mostly in range, sometimes just past it (month 13, day 32, hour 24, second 60), years below 100 included.
    const part = (max: number, width: number) =>
      fc.integer({ min: 0, max }).map((value) => String(value).padStart(width, '0'));
    const time = fc
      .tuple(part(9999, 4), part(13, 2), part(32, 2), part(25, 2), part(61, 2), part(61, 2))
      .map(([year, month, day, hour, minute, second]) => `${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
    fc.assert(
      fc.property(time, (pendingTime) => {
        const expected = new Date(pendingTime);
        const read = (): Date => parseIdentityDocument(bytes({ ...valid, pendingTime })).pendingTime;
        if (Number.isNaN(expected.getTime()))
          expect(failure(read).message).toMatch(/"pendingTime" must be an RFC 3339 timestamp/);
        else expect(read().getTime()).toBe(expected.getTime());
      }),
      { numRuns: 3000 },
    );
  });

  it('ignores other fields and accepts fractional and offset times', () => {
    const document = parseIdentityDocument(
      bytes({ ...valid, extra: { nested: true }, pendingTime: '2024-02-03T05:05:06.5+01:00' }),
    );
    expect(document.pendingTime.toISOString()).toBe('2024-02-03T04:05:06.500Z');
    expect(Object.keys(document).sort()).toEqual(['accountId', 'imageId', 'instanceId', 'pendingTime', 'region']);
  });

  it.each([
    ['bad JSON', '{"instanceId":', /^failed to parse the instance identity document: /],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0x7d]), /^failed to parse the instance identity document: /],
    ['a JSON array', [valid], /the document is not a JSON object/],
    ['a missing instanceId', { ...valid, instanceId: undefined }, /"instanceId" is missing or not a string/],
    ['a numeric accountId', { ...valid, accountId: 123456789012 }, /"accountId" is missing or not a string/],
    ['a path in the instanceId', { ...valid, instanceId: 'i-1/../x' }, /"instanceId" must be a plain identifier/],
    ['a control character in the imageId', { ...valid, imageId: 'ami-1\n' }, /"imageId" must be a plain identifier/],
    ['a host name as region', { ...valid, region: 'evil.example.com' }, /"region" must be a region name/],
    [
      'a pendingTime that is no timestamp',
      { ...valid, pendingTime: 'yesterday' },
      /"pendingTime" must be an RFC 3339 timestamp/,
    ],
    [
      'an impossible date',
      { ...valid, pendingTime: '2024-13-45T99:99:99Z' },
      /"pendingTime" must be an RFC 3339 timestamp/,
    ],
  ])('%s is a 400 naming the problem', (_name, value, message) => {
    const error = failure(() => parseIdentityDocument(Buffer.isBuffer(value) ? value : bytes(value)));
    expect(error).toBeInstanceOf(InvalidRequest);
    expect(error.message).toMatch(message);
  });
});
