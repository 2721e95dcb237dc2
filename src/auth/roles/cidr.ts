import { BlockList, isIP } from 'node:net';

/** One `token_bound_cidrs` item: a CIDR block, or a single address (a /32 or /128). */
interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

export function parseCidr(text: string): Cidr | undefined {
  const [address = '', prefixText, ...rest] = text.trim().split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return undefined;
  const bits = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Whether `address` lies in any of the blocks; an address that is not an IP lies in none. */
export function cidrsContain(cidrs: readonly string[], address: string): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  const list = new BlockList();
  for (const text of cidrs) {
    const cidr = parseCidr(text);
    if (cidr) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  return list.check(address, version === 4 ? 'ipv4' : 'ipv6');
}
