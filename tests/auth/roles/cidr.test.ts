import { describe, expect, it } from 'vitest';
import { cidrsContain, parseCidr } from '../../../src/auth/roles/cidr.js';

describe('token_bound_cidrs helpers', () => {
  it('parses blocks and single addresses of both families, and refuses the rest', () => {
    expect(parseCidr('10.0.0.0/8')).toEqual({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseCidr(' 192.168.1.1 ')).toEqual({ address: '192.168.1.1', prefix: 32, family: 'ipv4' });
    expect(parseCidr('2001:db8::/32')).toEqual({ address: '2001:db8::', prefix: 32, family: 'ipv6' });
    for (const bad of ['10.0.0.0/33', '10.0.0.0/', '10.0.0.0/8/1', 'example.com', '', '::/129', '10.0.0.0/-1']) {
      expect(parseCidr(bad), bad).toBeUndefined();
    }
  });

  it('tells whether an address lies in any block', () => {
    const cidrs = ['10.0.0.0/8', '192.168.1.1', '2001:db8::/32'];
    expect(cidrsContain(cidrs, '10.1.2.3')).toBe(true);
    expect(cidrsContain(cidrs, '192.168.1.1')).toBe(true);
    expect(cidrsContain(cidrs, '192.168.1.2')).toBe(false);
    expect(cidrsContain(cidrs, '2001:db8::1')).toBe(true);
    expect(cidrsContain(cidrs, '11.0.0.1')).toBe(false);
    expect(cidrsContain(cidrs, 'not an address')).toBe(false);
    expect(cidrsContain([], '10.0.0.1')).toBe(false);
  });
});
