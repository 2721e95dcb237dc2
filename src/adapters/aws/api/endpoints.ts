/**
 * Where each AWS-compatible API lives and which region a request to it is signed for. Region names reach here from
 * signed identity documents and from role configuration, so they are checked strictly before they become host names.
 */
import { endpointUrl, ENDPOINT_RULE } from '../../../lib/endpoint-url.js';
import { CloudUnavailable, InvalidRequest } from '../../../lib/errors.js';
import type { CloudClientSettings } from '../../../ports/cloud.js';

export const partitions = [
  'aws',
  'aws-cn',
  'aws-us-gov',
  'aws-iso',
  'aws-iso-b',
  'aws-iso-e',
  'aws-iso-f',
  'aws-eusc',
] as const;
export type Partition = (typeof partitions)[number];

/** A URL to send to and the region whose SigV4 scope the request must carry. */
export interface Endpoint {
  url: URL;
  region: string;
}

interface PartitionFacts {
  /** Which region names belong to the partition (most specific first in `partitionOfRegion`). */
  regions: RegExp;
  dnsSuffix: string;
  /** IAM is a global service: one endpoint per partition, signed for the partition's home region. */
  iamRegion: string;
  iamHost: string;
}

const partitionFacts: Readonly<Record<Partition, PartitionFacts>> = {
  'aws-us-gov': {
    regions: /^us-gov-/,
    dnsSuffix: 'amazonaws.com',
    iamRegion: 'us-gov-west-1',
    iamHost: 'iam.us-gov.amazonaws.com',
  },
  'aws-cn': {
    regions: /^cn-/,
    dnsSuffix: 'amazonaws.com.cn',
    iamRegion: 'cn-north-1',
    iamHost: 'iam.cn-north-1.amazonaws.com.cn',
  },
  'aws-iso': {
    regions: /^us-iso-/,
    dnsSuffix: 'c2s.ic.gov',
    iamRegion: 'us-iso-east-1',
    iamHost: 'iam.us-iso-east-1.c2s.ic.gov',
  },
  'aws-iso-b': {
    regions: /^us-isob-/,
    dnsSuffix: 'sc2s.sgov.gov',
    iamRegion: 'us-isob-east-1',
    iamHost: 'iam.us-isob-east-1.sc2s.sgov.gov',
  },
  'aws-iso-e': {
    regions: /^eu-isoe-/,
    dnsSuffix: 'cloud.adc-e.uk',
    iamRegion: 'eu-isoe-west-1',
    iamHost: 'iam.eu-isoe-west-1.cloud.adc-e.uk',
  },
  'aws-iso-f': {
    regions: /^us-isof-/,
    dnsSuffix: 'csp.hci.ic.gov',
    iamRegion: 'us-isof-south-1',
    iamHost: 'iam.us-isof-south-1.csp.hci.ic.gov',
  },
  'aws-eusc': {
    regions: /^eusc-/,
    dnsSuffix: 'amazonaws.eu',
    iamRegion: 'eusc-de-east-1',
    iamHost: 'iam.eusc-de-east-1.amazonaws.eu',
  },
  aws: {
    regions: /^(?:us|eu|ap|sa|ca|me|af|il|mx)-/,
    dnsSuffix: 'amazonaws.com',
    iamRegion: 'us-east-1',
    iamHost: 'iam.amazonaws.com',
  },
};

export const iamRegionOf = (partition: Partition): string => partitionFacts[partition].iamRegion;

/** The global STS endpoint (commercial partition only), used for forwarded logins when nothing names a region. */
const globalStsUrl = 'https://sts.amazonaws.com';

const regionPattern = /^(?:[a-z]{2}|eusc)(?:-[a-z]+)+-\d{1,2}$/;

function assertRegion(region: string): void {
  if (!regionPattern.test(region)) throw new InvalidRequest(`invalid region "${region}"`);
}

export function partitionOfRegion(region: string): Partition {
  assertRegion(region);
  for (const [partition, facts] of Object.entries(partitionFacts) as Array<[Partition, PartitionFacts]>) {
    if (facts.regions.test(region)) return partition;
  }
  throw new InvalidRequest(`region "${region}" belongs to no known partition`);
}

export function partitionFromName(name: string): Partition {
  if ((partitions as readonly string[]).includes(name)) return name as Partition;
  throw new InvalidRequest(`unsupported partition "${name}"`);
}

/** The value is not repeated: this message reaches login callers, and a refused URL may hold credentials. */
function parseEndpointOverride(name: string, value: string): URL {
  const url = endpointUrl(value);
  if (!url) throw new CloudUnavailable(`${name} ${ENDPOINT_RULE}`);
  return url;
}

/** `https://<service>.<region>.<the partition's DNS suffix>`; InvalidRequest for a region of no known form. */
export function regionalUrl(service: string, region: string): URL {
  return new URL(`https://${service}.${region}.${partitionFacts[partitionOfRegion(region)].dnsSuffix}`);
}

/** EC2 of `region`; the `endpoint` override replaces the host of every region, the signature keeps the region. */
export function ec2Endpoint(settings: CloudClientSettings, region: string): Endpoint {
  assertRegion(region);
  const url = settings.endpoint ? parseEndpointOverride('endpoint', settings.endpoint) : regionalUrl('ec2', region);
  return { url, region };
}

export function iamEndpoint(settings: CloudClientSettings, partition: Partition): Endpoint {
  const url = settings.iamEndpoint
    ? parseEndpointOverride('iam_endpoint', settings.iamEndpoint)
    : new URL(`https://${partitionFacts[partition].iamHost}`);
  return { url, region: iamRegionOf(partition) };
}

/** STS for the provider's own calls: `sts_region` wins over the call's region, `sts_endpoint` over the default host. */
export function stsEndpoint(settings: CloudClientSettings, region: string): Endpoint {
  const signingRegion = settings.stsRegion || region;
  assertRegion(signingRegion);
  const url = settings.stsEndpoint
    ? parseEndpointOverride('sts_endpoint', settings.stsEndpoint)
    : regionalUrl('sts', signingRegion);
  return { url, region: signingRegion };
}

/**
 * Where a client's signed GetCallerIdentity goes: `sts_endpoint` when set; else the regional STS of the region the
 * engine chose (e.g. from the client's credential scope), else of `sts_region`; else the global endpoint, which accepts
 * requests signed for us-east-1 as standard clients send them. The provider's own default region is deliberately not
 * used: the client, not the server, decided which region its signature is for.
 */
export function forwardingEndpoint(settings: CloudClientSettings, region: string | undefined): URL {
  if (settings.stsEndpoint) return parseEndpointOverride('sts_endpoint', settings.stsEndpoint);
  const chosen = region || settings.stsRegion;
  return chosen ? regionalUrl('sts', chosen) : new URL(globalStsUrl);
}

/** The regional STS URL clients sign for by default (client-side helpers). */
export function regionalStsUrl(region: string): URL {
  return regionalUrl('sts', region);
}
