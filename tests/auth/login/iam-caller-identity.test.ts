import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AuthenticationRefused, CloudUnavailable, isStrongroomError } from '../../../src/lib/errors.js';
import { parseCallerIdentityResponse } from '../../../src/auth/login/iam/caller-identity.js';
import type { HttpResponseSnapshot } from '../../../src/ports/cloud.js';
import { rejection } from '../../support/failure.js';

const result = (arn: string, userId: string, account = '123456789012') =>
  `<GetCallerIdentityResult>
    <Arn>${arn}</Arn>
    <UserId>${userId}</UserId>
    <Account>${account}</Account>
  </GetCallerIdentityResult>`;
const response = (
  ...results: string[]
) => `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  ${results.join('\n')}
  <ResponseMetadata>
    <RequestId>01234567-89ab-cdef-0123-456789abcdef</RequestId>
  </ResponseMetadata>
</GetCallerIdentityResponse>
`;
const USER = response(result('arn:aws:iam::123456789012:user/MyUserName', 'ASOMETHINGSOMETHINGSOMETHING'));
const stsError = (
  code: string,
  message = 'The request signature we calculated does not match the signature you provided.',
) =>
  `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error>
  <RequestId>4b1e0b0c-0000-0000-0000-000000000000</RequestId>
</ErrorResponse>`;

const snapshot = (body: string, status = 200, contentType: string | null = 'text/xml'): HttpResponseSnapshot => ({
  status,
  headers: contentType === null ? {} : { 'content-type': contentType },
  body,
});

describe('STS GetCallerIdentity response', () => {
  it('reads a user', async () => {
    expect(await parseCallerIdentityResponse(snapshot(USER))).toEqual({
      arn: 'arn:aws:iam::123456789012:user/MyUserName',
      userId: 'ASOMETHINGSOMETHINGSOMETHING',
      accountId: '123456789012',
    });
  });

  it('reads an assumed role after an XML declaration, and takes the first of several results', async () => {
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n${response(
      result(
        'arn:aws:sts::123456789012:assumed-role/RoleName/RoleSessionName',
        'AROADBQP57FF2AEXAMPLE:RoleSessionName',
      ),
      result('arn:aws:iam::123456789012:user/second', 'AIDASECOND'),
    )}`;
    expect(await parseCallerIdentityResponse(snapshot(body))).toEqual({
      arn: 'arn:aws:sts::123456789012:assumed-role/RoleName/RoleSessionName',
      userId: 'AROADBQP57FF2AEXAMPLE:RoleSessionName',
      accountId: '123456789012',
    });
  });

  it('keeps the account as text (leading zeros are significant)', async () => {
    expect(
      (
        await parseCallerIdentityResponse(
          snapshot(response(result('arn:aws:iam::012345678901:user/u', 'AIDA1', '012345678901'))),
        )
      ).accountId,
    ).toBe('012345678901');
  });

  it.each([['text/xml; charset=utf-8'], ['application/xml'], ['text/html'], [null]])(
    'refuses the Content-Type %j with a 502 (exactly text/xml, as Vault)',
    async (contentType) => {
      const error = await rejection(parseCallerIdentityResponse(snapshot(USER, 200, contentType)));
      expect(error).toBeInstanceOf(CloudUnavailable);
      expect(error.message).toMatch(/^body of GetCallerIdentity is invalid/);
    },
  );

  it.each([
    ['gibberish', 'this is not XML at all'],
    ['another document', '<AssumeRoleResponse><AssumeRoleResult/></AssumeRoleResponse>'],
    ['unclosed XML', '<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>x</Arn>'],
    ['another root after the declaration', '<?xml version="1.0"?><AssumeRoleResponse/>'],
    ['no result', response()],
    [
      'a result without Arn',
      response('<GetCallerIdentityResult><UserId>A</UserId><Account>1</Account></GetCallerIdentityResult>'),
    ],
    ['an empty Arn', response(result('', 'AIDA1'))],
    [
      'a repeated Arn',
      response(
        '<GetCallerIdentityResult><Arn>a</Arn><Arn>b</Arn><UserId>A</UserId><Account>1</Account></GetCallerIdentityResult>',
      ),
    ],
    ['nested markup as Arn', response(result('<x>arn</x>', 'AIDA1'))],
    ['a second root element', `${USER}<Other/>`],
    ['a DTD', `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]>${USER}`],
    ['an oversized body', `<?xml version="1.0"?>${' '.repeat(70_000)}${USER}`],
  ])('refuses %s with a 502', async (_name, body) => {
    expect(await rejection(parseCallerIdentityResponse(snapshot(body)))).toBeInstanceOf(CloudUnavailable);
  });

  it.each([
    [403, 'SignatureDoesNotMatch'],
    [403, 'InvalidClientTokenId'],
    [400, 'ExpiredToken'],
    [403, 'AccessDenied'],
  ])('a %i %s from STS is a refused authentication (403)', async (status, code) => {
    const error = await rejection(parseCallerIdentityResponse(snapshot(stsError(code), status)));
    expect(error).toBeInstanceOf(AuthenticationRefused);
    expect(error.message).toMatch(
      new RegExp(`^received error code ${status} from STS: ${code}: The request signature`),
    );
  });

  it.each([
    ['a 5xx', 500, stsError('InternalFailure')],
    ['a 503 without XML', 503, 'Service Unavailable'],
    ['a throttling 400', 400, stsError('Throttling', 'Rate exceeded')],
    ['a 429', 429, stsError('TooManyRequests')],
    ['a redirect', 302, ''],
    ['a 403 without an error document', 403, '<html>Forbidden</html>'],
    ['a 404 with gibberish', 404, 'not found'],
  ])('%s is a 502', async (_name, status, body) => {
    const error = await rejection(parseCallerIdentityResponse(snapshot(body, status)));
    expect(error).toBeInstanceOf(CloudUnavailable);
    expect(error.message).toMatch(new RegExp(`^received error code ${status} from STS`));
  });

  it('never throws an untyped error, whatever the body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 100, max: 599 }),
        fc.oneof(fc.string(), fc.constantFrom(USER, stsError('X'))),
        async (status, body) => {
          try {
            await parseCallerIdentityResponse(snapshot(body, status));
          } catch (error) {
            expect(isStrongroomError(error)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
