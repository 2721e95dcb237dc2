// Whether a request comes from where a token may be used: its bound CIDR blocks, or anywhere when it has none.
import { BlockList, isIP, isIPv6 } from 'node:net';

export function inCidrs(cidrs: readonly string[], address: string | undefined): boolean {
  if (cidrs.length === 0) return true;
  if (address === undefined || isIP(address) === 0) return false;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [base, bits] = cidr.split('/') as [string, string | undefined];
    const family = isIPv6(base) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(base, family);
    else list.addSubnet(base, Number(bits), family);
  }
  return list.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
}
