// HMAC-SHA256 over one-shot hashes must answer exactly what node:crypto's createHmac answers: RFC 4231's test vectors
// (keys shorter than, equal to and longer than a block) and createHmac itself over many keys and messages.
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256Hex } from '../../src/lib/hmac-sha256.js';

// RFC 4231 §4, test cases 1, 2, 6 and 7 (HMAC-SHA-256 rows).
const VECTORS = [
  {
    key: Buffer.alloc(20, 0x0b),
    data: 'Hi There',
    mac: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
  },
  {
    key: Buffer.from('Jefe'),
    data: 'what do ya want for nothing?',
    mac: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  },
  {
    key: Buffer.alloc(131, 0xaa),
    data: 'Test Using Larger Than Block-Size Key - Hash Key First',
    mac: '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
  },
  {
    key: Buffer.alloc(131, 0xaa),
    data:
      'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be ' +
      'hashed before being used by the HMAC algorithm.',
    mac: '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
  },
];

describe('hmacSha256Hex', () => {
  it.each(VECTORS)('answers RFC 4231 for a $key.length-byte key', ({ key, data, mac }) => {
    expect(hmacSha256Hex(key)(data)).toBe(mac);
  });

  it('answers what createHmac answers, for keys around the block size and messages of any length', () => {
    for (const length of [0, 1, 32, 63, 64, 65, 128, 200]) {
      const key = randomBytes(length);
      const keyed = hmacSha256Hex(key);
      for (const message of ['', 'token:sr.x', 'é€😀', 'x'.repeat(1000), randomBytes(40).toString('base64')]) {
        expect(keyed(message)).toBe(createHmac('sha256', key).update(message).digest('hex'));
      }
    }
  });

  it('keeps answering the same under one key: no state carries from one message to the next', () => {
    const keyed = hmacSha256Hex(Buffer.from('k'));
    const first = keyed('a');
    keyed('b'.repeat(500));
    expect(keyed('a')).toBe(first);
  });
});
