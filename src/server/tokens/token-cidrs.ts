// Whether a request comes from where a token may be used: its bound CIDR blocks, or anywhere when it has none.
import { BlockList, isIPv6 } from 'node:net';

export function inCidrs(cidrs: readonly string[], address: string | undefined): boolean {
  if (cidrs.length === 0) return true;
  // A string that is no address is in no block (BlockList answers false); none at all is refused here.
  if (address === undefined) return false;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [base, bits] = cidr.split('/') as [string, string | undefined];
    const family = isIPv6(base) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(base, family);
    else list.addSubnet(base, Number(bits), family);
  }
  return list.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
}
