import { describe, expect, it } from 'vitest';
import { AuthMethod, InvalidRequest, errorsOf } from '../../../src/index.js';
import { sampleFile } from '../../support/aws-fixtures.js';
import { testStorage } from '../../support/test-storage.js';

// The login fields are read by hand (not by a schema) on the hot login path: these pin the wording it keeps.
const PKCS7 = sampleFile('teleport-us-west-2-2021', 'rsa2048');

function auth(): AuthMethod {
  return new AuthMethod({ storage: testStorage(), env: {} });
}

async function refusal(body: Record<string, unknown>): Promise<[number, string[]]> {
  const response = await auth().handle({ method: 'POST', path: 'login', body });
  return [response.status, errorsOf(response)];
}

describe('login fields', () => {
  it('names a field that is not text, as the other routes do', async () => {
    expect(await refusal({ role: {}, pkcs7: PKCS7 })).toEqual([
      400,
      ['invalid value for field "role": expected a string, got {}'],
    ]);
    expect(await refusal({ role: 'web', identity: null, signature: 'x' })).toEqual([
      400,
      ['invalid value for field "identity": expected a string, got null'],
    ]);
  });

  it('names every bad field, in the order role, pkcs7, identity, signature, nonce', async () => {
    const [status, errors] = await refusal({ nonce: ['n'], pkcs7: 'A'.repeat(128 * 1024 + 1), role: 'r'.repeat(513) });
    expect(status).toBe(400);
    expect(errors).toEqual([
      'invalid value for field "role": must be at most 512 characters; invalid value for field "pkcs7": must be at most 131072 characters; ' +
        'invalid value for field "nonce": expected a string, got ["n"]',
    ]);
  });

  it('takes numbers and booleans in their text form, and ignores unknown fields', async () => {
    // The genuine document verifies, then the role (the number's text) is looked up and is missing.
    expect(await refusal({ role: 42, pkcs7: PKCS7, colour: { any: 'thing' } })).toEqual([
      400,
      ['entry for role "42" not found'],
    ]);
  });

  it('leaves the iam fields to the iam login, which names what is missing', async () => {
    const [status, errors] = await refusal({
      iam_http_request_method: 'POST',
      iam_request_url: null,
      iam_request_headers: 7,
    });
    expect(status).toBe(400);
    expect(errors).toEqual(['supplied some of the auth values for the iam auth type but not all']);
  });

  it('refuses a typed login whose body is not an object', async () => {
    await expect(auth().login(null as never)).rejects.toThrow(InvalidRequest);
    await expect(auth().login(null as never)).rejects.toThrow('the input must be a JSON object');
  });
});
