/**
 * Where each AWS-compatible API lives and which region a request to it is signed for. Region names reach here from
 * signed identity documents and from role configuration, so they are checked strictly before they become host names.
 */
import { CloudUnavailable, InvalidRequest } from '../../core/errors.js';
import type { CloudClientSettings } from '../../ports/cloud.js';

export type Partition = 'aws' | 'aws-cn' | 'aws-us-gov';

/** A URL to send to and the region whose SigV4 scope the request must carry. */
export interface Endpoint {
  url: URL;
  region: string;
}

/** IAM is a global service: one endpoint per partition, signed for the partition's home region. */
export const iamRegionOf: Readonly<Record<Partition, string>> = {
  aws: 'us-east-1',
  'aws-us-gov': 'us-gov-west-1',
  'aws-cn': 'cn-north-1',
};

const iamHostOf: Readonly<Record<Partition, string>> = {
  aws: 'iam.amazonaws.com',
  'aws-us-gov': 'iam.us-gov.amazonaws.com',
  'aws-cn': 'iam.cn-north-1.amazonaws.com.cn',
};

const dnsSuffixOf: Readonly<Record<Partition, string>> = {
  aws: 'amazonaws.com',
  'aws-us-gov': 'amazonaws.com',
  'aws-cn': 'amazonaws.com.cn',
};

/** The global STS endpoint, used for forwarded logins when neither an override nor a region says otherwise. */
const globalStsUrl = 'https://sts.amazonaws.com';

const regionPattern = /^[a-z]{2}(?:-[a-z]+)+-\d{1,2}$/;

function assertRegion(region: string): void {
  if (!regionPattern.test(region)) throw new InvalidRequest(`invalid region "${region}"`);
}

export function partitionOfRegion(region: string): Partition {
  assertRegion(region);
  if (region.startsWith('cn-')) return 'aws-cn';
  if (region.startsWith('us-gov-')) return 'aws-us-gov';
  if (/^[a-z]{2}-iso/.test(region)) {
    throw new InvalidRequest(
      `region "${region}" is in a partition without default endpoints; configure endpoint overrides`,
    );
  }
  return 'aws';
}

export function partitionFromName(name: string): Partition {
  if (name === 'aws' || name === 'aws-cn' || name === 'aws-us-gov') return name;
  throw new InvalidRequest(`unsupported partition "${name}"`);
}

/** Parses an endpoint override; http:// is allowed (local emulators, proxies). */
function parseEndpointOverride(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CloudUnavailable(`${name} "${value}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CloudUnavailable(`${name} "${value}" must be an http:// or https:// URL`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new CloudUnavailable(`${name} "${value}" must not carry credentials, a query or a fragment`);
  }
  return url;
}

function regionalUrl(service: string, region: string): URL {
  return new URL(`https://${service}.${region}.${dnsSuffixOf[partitionOfRegion(region)]}`);
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
    : new URL(`https://${iamHostOf[partition]}`);
  return { url, region: iamRegionOf[partition] };
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
