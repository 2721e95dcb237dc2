import { describe, expect, it } from 'vitest';
import aws4 from 'aws4';
import { InvalidRequest } from '../../../src/lib/errors.js';
import { decodeIamRequest, type IamLoginFields, type IamRequestPolicy } from '../../../src/auth/login/iam/request.js';

const SERVER_ID = 'vault.example.com';
const BODY = 'Action=GetCallerIdentity&Version=2011-06-15';
const POLICY: IamRequestPolicy = {
  serverIdHeaderValue: SERVER_ID,
  allowedStsHeaders: [],
  useStsRegionFromClient: false,
};
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Headers as a SigV4 client produces them (aws4 signs the server-ID header, as Vault's clients do). */
function signedHeaders(
  extra: Record<string, string> = { 'X-Service-Cloud-IAM-Server-ID': SERVER_ID },
  region = 'us-east-1',
) {
  const host = region === 'us-east-1' ? 'sts.amazonaws.com' : `sts.${region}.amazonaws.com`;
  const signed = aws4.sign(
    {
      host,
      method: 'POST',
      path: '/',
      service: 'sts',
      region,
      body: BODY,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8', ...extra },
    },
    { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'token' },
  );
  return Object.fromEntries(Object.entries(signed.headers ?? {}).map(([name, value]) => [name, String(value)]));
}

function fields(overrides: Partial<Record<keyof IamLoginFields, unknown>> = {}): IamLoginFields {
  return {
    iam_http_request_method: 'POST',
    iam_request_url: b64('https://sts.amazonaws.com/'),
    iam_request_body: b64(BODY),
    iam_request_headers: signedHeaders(),
    ...overrides,
  };
}

function refusal(input: IamLoginFields, policy: IamRequestPolicy = POLICY): string {
  try {
    decodeIamRequest(input, policy);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequest);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('iam request decoding', () => {
  it('builds the request to forward: root URL of the client host, exact body, headers without Host', () => {
    const headers = signedHeaders();
    const { request, region } = decodeIamRequest(fields({ iam_request_headers: headers }), POLICY);
    expect(request.method).toBe('POST');
    expect(request.url).toBe('https://sts.amazonaws.com/');
    expect(request.body).toBe(BODY);
    expect(request.headers.Host).toBeUndefined();
    expect(request.headers.Authorization).toEqual([headers.Authorization]);
    expect(request.headers['X-Service-Cloud-IAM-Server-ID']).toEqual([SERVER_ID]);
    expect(region).toBeUndefined();
  });

  describe('header encodings', () => {
    const headers = signedHeaders();
    const asArrays = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]]));
    const expected = decodeIamRequest(fields({ iam_request_headers: headers }), POLICY).request.headers;
    it.each([
      ['a JSON object of strings', headers],
      ['a JSON object of arrays (the CLI form)', asArrays],
      ['base64 of the JSON object (the CLI form)', b64(JSON.stringify(asArrays))],
      ['a JSON string', JSON.stringify(headers)],
      ['a list of "Name: Value" strings', Object.entries(headers).map(([name, value]) => `${name}: ${value}`)],
    ])('%s', (_name, encoded) => {
      expect(decodeIamRequest(fields({ iam_request_headers: encoded }), POLICY).request.headers).toEqual(expected);
    });

    it('numbers are header values too, and repeated spellings merge', () => {
      const { request } = decodeIamRequest(
        fields({ iam_request_headers: { ...headers, 'X-Custom': 1.5, 'x-custom': ['two', 3] } }),
        POLICY,
      );
      expect(request.headers['X-Custom']).toEqual(['1.5', 'two', '3']);
      expect(request.headers['x-custom']).toBeUndefined();
    });

    it.each([
      ['missing', undefined, 'missing iam_request_headers'],
      ['empty', '', 'missing iam_request_headers'],
      ['a number', 5, /expected a JSON object/],
      ['a JSON array string', '["a"]', /not a JSON object/],
      ['neither base64 nor JSON', '{nope', /not a JSON object, nor base64 of one/],
      [
        'an object value',
        { ...headers, 'X-Thing': { a: 1 } },
        /value of header "X-Thing" must be a string, a number or an array/,
      ],
      ['a boolean value', { ...headers, 'X-Thing': true }, /value of header "X-Thing"/],
      ['an invalid name', { ...headers, 'Bad Name': 'x' }, /invalid header name "Bad Name"/],
      ['a line break in a value', { ...headers, 'X-Thing': 'a\r\nX-Injected: 1' }, /line break or NUL/],
      ['a list item without a colon', ['Authorization'], /"Name: Value" strings/],
      ['a list item that is not a string', [{ Authorization: 'x' }], /"Name: Value" strings/],
      [
        'too many headers',
        Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`X-H${i}`, 'v'])),
        /more than 64 headers/,
      ],
    ])('%s is refused', (_name, encoded, message) => {
      expect(refusal(fields({ iam_request_headers: encoded }))).toMatch(message);
    });
  });

  describe('method', () => {
    it.each([
      [undefined, 'missing iam_http_request_method'],
      ['', 'missing iam_http_request_method'],
      ['GET', "invalid iam_http_request_method; currently only 'POST' is supported"],
      ['post', "invalid iam_http_request_method; currently only 'POST' is supported"],
      ['PUT', "invalid iam_http_request_method; currently only 'POST' is supported"],
      [1, 'iam_http_request_method must be a string'],
    ])('%j is refused', (method, message) => {
      expect(refusal(fields({ iam_http_request_method: method }))).toBe(message);
    });

    it('a presigned GET is refused', () => {
      const url =
        'https://sts.amazonaws.com/?Action=GetCallerIdentity&Version=2011-06-15&X-Amz-Algorithm=AWS4-HMAC-SHA256';
      expect(
        refusal(fields({ iam_http_request_method: 'GET', iam_request_url: b64(url), iam_request_body: '' })),
      ).toMatch(/only 'POST'/);
    });
  });

  describe('URL', () => {
    it.each([
      'https://sts.amazonaws.com',
      'https://sts.amazonaws.com/?',
      'http://sts.us-west-2.amazonaws.com:8443/',
      'HTTPS://STS.amazonaws.com/',
    ])('%s is accepted', (url) => {
      const { request } = decodeIamRequest(fields({ iam_request_url: b64(url) }), POLICY);
      expect(request.url).toMatch(/^https?:\/\/[a-z0-9.-]+(:\d+)?\/$/);
    });

    it.each([
      [undefined, 'missing iam_request_url'],
      ['not base64!', 'failed to base64 decode iam_request_url'],
      [b64('no url at all'), 'error parsing iam_request_url'],
      [b64('ftp://sts.amazonaws.com/'), /scheme must be https or http/],
      [b64('https://sts.amazonaws.com/?Action=AssumeRole'), /must not have a query for POST requests/],
      [b64('https://sts.amazonaws.com/?'.concat('X-Amz-Credential=x')), /must not have a query/],
      [b64('https://sts.amazonaws.com/foo'), /must be the root URL/],
      [b64('https://sts.amazonaws.com/a/../'), /must be the root URL/],
      [b64('https://sts.amazonaws.com/%2e%2e/'), /must be the root URL/],
      [b64('https://user:pass@sts.amazonaws.com/'), /must be the root URL/],
      [b64('https://sts.amazonaws.com/#fragment'), /must be the root URL/],
      [b64('https://sts.amazonaws.com\\@evil.example/'), /must be the root URL/],
    ])('%j is refused', (url, message) => {
      expect(refusal(fields({ iam_request_url: url }))).toMatch(message);
    });
  });

  describe('body', () => {
    it('accepts the parameters in either order and percent-encoded', () => {
      for (const body of [
        'Version=2011-06-15&Action=GetCallerIdentity',
        'Action=Get%43allerIdentity&Version=2011-06-15',
      ]) {
        const { 'Content-Length': _signedForAnotherBody, ...headers } = signedHeaders();
        expect(
          decodeIamRequest(fields({ iam_request_body: b64(body), iam_request_headers: headers }), POLICY).request.body,
        ).toBe(body);
      }
    });

    it.each([
      [undefined, 'missing iam_request_body which is required for POST requests'],
      ['', 'missing iam_request_body which is required for POST requests'],
      ['%%%', 'failed to base64 decode iam_request_body'],
      [b64(`${BODY}&Foo=bar`), 'iam request body is invalid: unexpected parameter "Foo"'],
      [b64(`${BODY}&Action=AssumeRole`), 'iam request body is invalid: parameter Action is repeated'],
      [b64(`${BODY}&Act%69on=AssumeRole`), 'iam request body is invalid: parameter Action is repeated'],
      [b64(`${BODY}&Version=2011-06-15`), 'iam request body is invalid: parameter Version is repeated'],
      [
        b64('Action=AssumeRole&Version=2011-06-15'),
        'iam request body is invalid: the Action must be GetCallerIdentity',
      ],
      [b64('Version=2011-06-15'), 'iam request body is invalid: the Action must be GetCallerIdentity'],
      [b64('Action=GetCallerIdentity'), 'iam request body is invalid: a Version like 2011-06-15 is required'],
      [
        b64('Action=GetCallerIdentity&Version=latest'),
        'iam request body is invalid: a Version like 2011-06-15 is required',
      ],
      [
        b64('Action=GetCallerIdentity;Version=2011-06-15'),
        'iam request body is invalid: it is not a form-encoded parameter list',
      ],
      [b64(`${BODY}\n`), 'iam request body is invalid: it is not a form-encoded parameter list'],
      [b64(`${BODY}&`), 'iam request body is invalid: every parameter needs a value'],
      [
        b64(`Action=GetCallerIdentity&Version=2011-06-15&RoleArn`),
        'iam request body is invalid: every parameter needs a value',
      ],
      [b64('Action=%zz&Version=2011-06-15'), 'iam request body is invalid: bad percent-encoding'],
    ])('%j is refused', (body, message) => {
      expect(refusal(fields({ iam_request_body: body }))).toBe(message);
    });
  });

  describe('X-Amz-* and connection headers', () => {
    it('refuses an X-Amz-* header outside the allow-list, naming it as supplied', () => {
      const headers = { ...signedHeaders(), 'X-Amz-Mallory-Header': 'evil' };
      expect(refusal(fields({ iam_request_headers: headers }))).toBe('invalid request header: X-Amz-Mallory-Header');
    });

    it('allows the extra headers of allowed_sts_header_values, case-insensitively', () => {
      const headers = { ...signedHeaders(), 'x-amz-mallory-header': 'fine' };
      const policy = { ...POLICY, allowedStsHeaders: ['X-Amz-Mallory-Header'] };
      expect(
        decodeIamRequest(fields({ iam_request_headers: headers }), policy).request.headers['x-amz-mallory-header'],
      ).toEqual(['fine']);
    });

    it('accepts the default X-Amz-* headers in any spelling', () => {
      const headers = {
        ...signedHeaders(),
        'X-Amz-Signedheaders': 'host',
        'x-amz-user-agent': 'aws-cli',
        'X-AMZ-CONTENT-SHA256': 'abc',
      };
      expect(() => decodeIamRequest(fields({ iam_request_headers: headers }), POLICY)).not.toThrow();
    });

    it.each(['Transfer-Encoding', 'Connection', 'Upgrade'])('refuses the connection-level header %s', (name) => {
      expect(refusal(fields({ iam_request_headers: { ...signedHeaders(), [name]: 'chunked' } }))).toBe(
        `invalid request header: ${name}`,
      );
    });

    it('requires a Content-Length to match the body, once', () => {
      const ok = decodeIamRequest(
        fields({ iam_request_headers: { ...signedHeaders(), 'Content-Length': '43' } }),
        POLICY,
      );
      expect(ok.request.headers['Content-Length']).toEqual(['43']);
      expect(refusal(fields({ iam_request_headers: { ...signedHeaders(), 'Content-Length': '4' } }))).toMatch(
        /Content-Length does not match/,
      );
      expect(refusal(fields({ iam_request_headers: { ...signedHeaders(), 'content-length': ['43', '43'] } }))).toMatch(
        /Content-Length does not match/,
      );
    });

    it('applies the allow-list even without a configured server ID', () => {
      const headers = { ...signedHeaders({}), 'X-Amz-Mallory-Header': 'evil' };
      expect(refusal(fields({ iam_request_headers: headers }), { ...POLICY, serverIdHeaderValue: '' })).toBe(
        'invalid request header: X-Amz-Mallory-Header',
      );
    });
  });

  describe('server-ID header', () => {
    const prefix = 'error validating X-Service-Cloud-IAM-Server-ID header: ';

    it('is not needed when no value is configured', () => {
      expect(() =>
        decodeIamRequest(fields({ iam_request_headers: signedHeaders({}) }), { ...POLICY, serverIdHeaderValue: '' }),
      ).not.toThrow();
    });

    it('must be present', () => {
      expect(refusal(fields({ iam_request_headers: signedHeaders({}) }))).toBe(
        `${prefix}missing header "X-Service-Cloud-IAM-Server-ID"`,
      );
    });

    it('must equal the configured value exactly', () => {
      const headers = signedHeaders({ 'X-Service-Cloud-IAM-Server-ID': 'VAULT.example.com' });
      const message = refusal(fields({ iam_request_headers: headers }));
      expect(message).toBe(
        `${prefix}the X-Service-Cloud-IAM-Server-ID header "VAULT.example.com" does not carry this server's ID`,
      );
      expect(message).not.toContain(SERVER_ID);
    });

    it('must be signed', () => {
      const headers = { ...signedHeaders({}), 'X-Service-Cloud-IAM-Server-ID': SERVER_ID };
      expect(refusal(fields({ iam_request_headers: headers }))).toBe(
        `${prefix}the X-Service-Cloud-IAM-Server-ID header wasn't signed`,
      );
    });

    it('needs an Authorization header to be signed', () => {
      const { Authorization: _dropped, ...headers } = signedHeaders();
      expect(refusal(fields({ iam_request_headers: headers }))).toBe(`${prefix}missing Authorization header`);
    });

    it('is found in an Authorization header split over two values', () => {
      const headers = signedHeaders();
      const [scheme, rest] = headers.Authorization!.split(', SignedHeaders=') as [string, string];
      const split = { ...headers, Authorization: [scheme, `SignedHeaders=${rest}`] };
      expect(() => decodeIamRequest(fields({ iam_request_headers: split }), POLICY)).not.toThrow();
    });

    it("accepts Vault's header name, signed, unless turned off", () => {
      const headers = signedHeaders({ 'X-Vault-AWS-IAM-Server-ID': SERVER_ID });
      expect(() => decodeIamRequest(fields({ iam_request_headers: headers }), POLICY)).not.toThrow();
      expect(
        refusal(fields({ iam_request_headers: headers }), { ...POLICY, acceptVaultServerIdHeader: false }),
      ).toMatch(/missing header/);
      const unsigned = { ...signedHeaders({}), 'X-Vault-AWS-IAM-Server-ID': SERVER_ID };
      expect(refusal(fields({ iam_request_headers: unsigned }))).toBe(
        `${prefix}the X-Vault-AWS-IAM-Server-ID header wasn't signed`,
      );
    });

    it('refuses when any of the two names carries another value', () => {
      const headers = signedHeaders({
        'X-Service-Cloud-IAM-Server-ID': SERVER_ID,
        'X-Vault-AWS-IAM-Server-ID': 'other',
      });
      expect(refusal(fields({ iam_request_headers: headers }))).toBe(
        `${prefix}the X-Vault-AWS-IAM-Server-ID header "other" does not carry this server's ID`,
      );
    });
  });

  describe('region from the credential scope (use_sts_region_from_client)', () => {
    const policy = { ...POLICY, useStsRegionFromClient: true };
    const withAuthorization = (authorization: string) =>
      fields({ iam_request_headers: { ...signedHeaders(), Authorization: authorization } });

    it.each(['us-east-1', 'us-west-2', 'ap-northeast-3', 'us-gov-east-1'])('reads %s', (region) => {
      const headers = signedHeaders({ 'X-Service-Cloud-IAM-Server-ID': SERVER_ID }, region);
      expect(decodeIamRequest(fields({ iam_request_headers: headers }), policy).region).toBe(region);
    });

    it('refuses a missing or malformed credential scope', () => {
      const { Authorization: _dropped, ...noAuthorization } = signedHeaders();
      expect(refusal(fields({ iam_request_headers: noAuthorization }), { ...policy, serverIdHeaderValue: '' })).toBe(
        'region missing from Authorization header',
      );
      expect(
        refusal(withAuthorization('this-is-an-invalid-header/foobar'), { ...policy, serverIdHeaderValue: '' }),
      ).toBe('region missing from Authorization header');
    });

    it.each(['fake-region-1', 'evil.example.com', 'us-east-1.evil.example', 'US-EAST-1', 'us-east-1#'])(
      'refuses the region %j',
      (region) => {
        const authorization = `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240101/${region}/sts/aws4_request, SignedHeaders=host;x-service-cloud-iam-server-id, Signature=abc`;
        expect(refusal(withAuthorization(authorization), policy)).toBe(
          `unable to get regional STS endpoint for region: ${region}`,
        );
      },
    );
  });
});
