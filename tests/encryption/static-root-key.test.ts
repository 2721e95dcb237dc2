import { describe, expect, it } from 'vitest';
import { StaticRootKey } from '../../src/index.js';

describe('StaticRootKey', () => {
  it('refuses a missing key with the rule it breaks, as fromBase64(process.env.ROOT_KEY!) meets an unset variable', () => {
    for (const missing of [undefined, null, 32]) {
      expect(() => StaticRootKey.fromBase64(missing as unknown as string)).toThrow(
        new TypeError('the root key must be 32 bytes in standard base64 (44 characters); got no text (is the variable holding it set?)'),
      );
    }
  });
});
