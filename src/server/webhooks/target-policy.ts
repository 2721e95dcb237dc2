// Where a webhook may send: http(s) only, and never to an internal address (loopback, link-local, private, shared,
// unspecified, IPv4-mapped) unless the operator allowed it by host name or CIDR. Checked when a webhook is written and
// again on every delivery, against the address the connection is actually made to, so a name that resolved to a public
// address at creation and to an internal one later (DNS rebinding) is refused then.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { InvalidRequest } from '../../lib/errors.js';

const INTERNAL_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const;
const INTERNAL_V6 = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const;

const internal = new BlockList();
for (const [address, prefix] of INTERNAL_V4) internal.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of INTERNAL_V6) internal.addSubnet(address, prefix, 'ipv6');
// IPv4-mapped IPv6 addresses, refused whatever IPv4 address they carry. A list of their own, asked only about IPv6
// addresses: a BlockList matches every IPv4 address against this subnet.
const mapped = new BlockList();
mapped.addSubnet('::ffff:0:0', 96, 'ipv6');

/** A delivery refused by the target policy: never retried into success, but reported like any failed attempt. */
export class RefusedTarget extends Error {}

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');
/** The hostname of a URL without IPv6 brackets, lower case. */
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();

/** The operator's exceptions (`STRONGROOM_WEBHOOK_ALLOW`, `webhookAllow`): host names, addresses and CIDRs. */
export class TargetPolicy {
  private readonly hosts = new Set<string>();
  private readonly allowed = new BlockList();

  /** Refuses (a TypeError naming it) an entry that is neither a host name nor an address nor a CIDR. */
  constructor(allow: readonly string[]) {
    for (const raw of allow) {
      const entry = raw.trim().toLowerCase();
      if (entry === '') continue;
      const [base = '', bits, extra] = entry.split('/');
      const version = isIP(base);
      const prefix = Number(bits ?? (version === 6 ? 128 : 32));
      if (version !== 0 && extra === undefined && Number.isInteger(prefix) && prefix >= 0) {
        if (prefix > (version === 6 ? 128 : 32)) throw new TypeError(`webhookAllow: ${raw} is not a valid CIDR`);
        this.allowed.addSubnet(base, prefix, familyOf(base));
      } else if (bits === undefined && /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(entry)) this.hosts.add(entry);
      else throw new TypeError(`webhookAllow: ${JSON.stringify(raw)} is neither a host name nor an address or CIDR`);
    }
  }

  /** Parses a webhook's URL; InvalidRequest (400) for anything but a plain http(s) URL. */
  parse(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new InvalidRequest('"url" must be an absolute http or https URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new InvalidRequest('"url" must be an http or https URL');
    if (url.username || url.password) throw new InvalidRequest('"url" must not carry credentials');
    return url;
  }

  /** Whether the connection to `address` for `url` may be made. */
  permits(url: URL, address: string): boolean {
    if (this.hosts.has(bareHost(url)) || this.hosts.has(address.toLowerCase())) return true;
    if (this.allowed.check(address, familyOf(address))) return true;
    const family = familyOf(address);
    return !internal.check(address, family) && !(family === 'ipv6' && mapped.check(address, 'ipv6'));
  }

  /** Resolves the URL's host now and refuses (400) when any of its addresses may not be reached. */
  async check(url: URL): Promise<void> {
    const host = bareHost(url);
    const addresses = isIP(host)
      ? [host]
      : await new Promise<string[]>((resolve, reject) =>
          dnsLookup(host, { all: true }, (error, found: LookupAddress[]) =>
            error ? reject(new InvalidRequest(`"url": cannot resolve ${host}`)) : resolve(found.map((a) => a.address)),
          ),
        );
    const refused = addresses.find((address) => !this.permits(url, address));
    if (refused !== undefined)
      throw new InvalidRequest(
        `"url": ${host} is an internal address (${refused}); allow it with STRONGROOM_WEBHOOK_ALLOW if meant`,
      );
  }

  /**
   * A `lookup` for node:http that answers only permitted addresses, so the address checked is the address connected
   * to; a literal address never reaches it and is checked by {@link TargetPolicy.literalRefused}.
   */
  lookupFor(url: URL): LookupFunction {
    return (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
        if (error) return callback(error, '', 4);
        const permitted = found.filter((entry) => this.permits(url, entry.address));
        if (permitted.length === 0)
          return callback(new RefusedTarget(`${hostname} resolves to an internal address`), '', 4);
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, permitted);
        callback(null, permitted[0]!.address, permitted[0]!.family);
      });
    };
  }

  /** Whether the URL names a literal address that may not be reached. */
  literalRefused(url: URL): boolean {
    const host = bareHost(url);
    return isIP(host) !== 0 && !this.permits(url, host);
  }
}
