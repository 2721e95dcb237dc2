import { z } from 'zod';
import { endpointUrl, ENDPOINT_RULE } from '../../lib/endpoint-url.js';
import { InvalidRequest } from '../../lib/errors.js';
import { bool, int, str, stringList, typed } from '../../core/framework/fields.js';
import type { CloudClientSettings } from '../../ports/cloud.js';
import { isRegionName } from '../../lib/region.js';
import type { AuthContext } from '../context/auth-context.js';
import { storedDocument } from '../context/stored-document.js';
import { configuredHeaderName } from './header-name.js';
import { suppliedFields } from './supplied.js';

const storedClientConfig = z.object({
  access_key: z.string(),
  secret_key: z.string(),
  endpoint: z.string(),
  iam_endpoint: z.string(),
  sts_endpoint: z.string(),
  sts_region: z.string(),
  use_sts_region_from_client: z.boolean(),
  /**
   * Extension: with use_sts_region_from_client, the regions a client's signature may name. Empty means "the regions of
   * the provider's own partition".
   */
  allowed_sts_regions: z.array(z.string()),
  iam_server_id_header_value: z.string(),
  /** Canonical header names (`X-Custom-Header`). */
  allowed_sts_header_values: z.array(z.string()),
  /** -1 means the provider's default. */
  max_retries: z.number().int(),
  /** Extension: seconds a running instance's description may be reused by ec2 logins (0 = off, at most 60). */
  instance_cache_seconds: z.number().int(),
});

/** The stored `config/client`. `secret_key` is write-only: no response, error or log ever carries it. */
export type ClientConfig = z.infer<typeof storedClientConfig>;

export const DEFAULT_CLIENT_CONFIG: Readonly<ClientConfig> = Object.freeze({
  access_key: '',
  secret_key: '',
  endpoint: '',
  iam_endpoint: '',
  sts_endpoint: '',
  sts_region: '',
  use_sts_region_from_client: false,
  allowed_sts_regions: [],
  iam_server_id_header_value: '',
  allowed_sts_header_values: [],
  max_retries: -1,
  instance_cache_seconds: 0,
});

/** The client configuration; a field it lacks (one added after it was written) reads as its default. */
export const clientConfigDocument = storedDocument({
  key: 'config/client',
  shape: storedClientConfig,
  defaults: DEFAULT_CLIENT_CONFIG,
});

function endpoint() {
  return str({ maxLength: 2048 }).refine((value) => value === '' || endpointUrl(value) !== undefined, {
    message: ENDPOINT_RULE,
  });
}

/** Like str(), but a refusal never echoes the value: it is a secret. */
function secret() {
  const schema = z.unknown().transform((value, ctx): string => {
    if (typeof value === 'string' && value.length <= 1024) return value;
    ctx.issues.push({ code: 'custom', message: 'expected a string of at most 1024 characters', input: undefined });
    return z.NEVER;
  });
  return typed(schema, 'string');
}

const URL_RULE = 'an `http(s)` URL without credentials, query or fragment';

export const clientConfigFields = z.object({
  access_key: str({ maxLength: 256 }).optional().meta({
    description: 'The access key id of static credentials; empty: the provider finds credentials itself.',
    default: DEFAULT_CLIENT_CONFIG.access_key,
  }),
  secret_key: secret().optional().meta({
    description: 'The secret key of `access_key`. Write-only: never in a read, an error or a log.',
    default: DEFAULT_CLIENT_CONFIG.secret_key,
  }),
  endpoint: endpoint()
    .optional()
    .meta({
      description: `The EC2 endpoint, when not the region's own: ${URL_RULE}.`,
      default: DEFAULT_CLIENT_CONFIG.endpoint,
    }),
  iam_endpoint: endpoint()
    .optional()
    .meta({
      description: `The IAM endpoint, when not the partition's own: ${URL_RULE}.`,
      default: DEFAULT_CLIENT_CONFIG.iam_endpoint,
    }),
  sts_endpoint: endpoint()
    .optional()
    .meta({
      description: `The STS endpoint that checks iam logins, when not the global one: ${URL_RULE}.`,
      default: DEFAULT_CLIENT_CONFIG.sts_endpoint,
    }),
  sts_region: str({ maxLength: 64 }).optional().meta({
    description: 'The region whose STS checks iam logins when `sts_endpoint` is not set.',
    default: DEFAULT_CLIENT_CONFIG.sts_region,
  }),
  use_sts_region_from_client: bool().optional().meta({
    description:
      "Check each iam login with the STS of the region in the client's signature, which overrides `sts_endpoint`.",
    default: DEFAULT_CLIENT_CONFIG.use_sts_region_from_client,
  }),
  allowed_sts_regions: stringList()
    .refine((regions) => regions.every(isRegionName), { message: 'must list region names such as us-east-1' })
    .optional()
    .meta({
      description:
        "Extension: with `use_sts_region_from_client`, the regions a client's signature may name; empty: those of the provider's own partition.",
      default: DEFAULT_CLIENT_CONFIG.allowed_sts_regions,
    }),
  iam_server_id_header_value: str({ maxLength: 1024 }).optional().meta({
    description:
      'A value iam logins must sign in the `X-Service-Cloud-IAM-Server-ID` header (or `X-Vault-AWS-IAM-Server-ID`); empty: none.',
    default: DEFAULT_CLIENT_CONFIG.iam_server_id_header_value,
  }),
  allowed_sts_header_values: stringList().optional().meta({
    description:
      'More headers a signed iam request may carry, stored canonicalised (`x-foo` becomes `X-Foo`); a name a header cannot have is refused.',
    default: DEFAULT_CLIENT_CONFIG.allowed_sts_header_values,
  }),
  max_retries: int({ min: -1, max: 100 }).optional().meta({
    description: "How often a failed cloud call is retried; -1: the provider's default.",
    default: DEFAULT_CLIENT_CONFIG.max_retries,
  }),
  instance_cache_seconds: int({ min: 0, max: 60 }).optional().meta({
    description: "Extension: seconds a running instance's description may be reused by ec2 logins; 0: off.",
    default: DEFAULT_CLIENT_CONFIG.instance_cache_seconds,
  }),
});

export type ClientConfigFields = z.output<typeof clientConfigFields>;

/** A create starts from the defaults; an update changes only the supplied fields. */
export function applyClientConfigFields(current: ClientConfig | undefined, fields: ClientConfigFields): ClientConfig {
  const { allowed_sts_header_values: allowed, ...rest } = fields;
  return {
    ...DEFAULT_CLIENT_CONFIG,
    ...current,
    ...suppliedFields(rest),
    ...(allowed === undefined
      ? {}
      : { allowed_sts_header_values: allowed.map((name) => configuredHeaderName(name, 'allowed_sts_header_values')) }),
  };
}

/** What a read shows: every field except the secret key. */
export function clientConfigView(config: ClientConfig): Omit<ClientConfig, 'secret_key'> {
  const { secret_key: _secret, ...visible } = config;
  return visible;
}

export function readClientConfig(context: AuthContext): Promise<ClientConfig | undefined> {
  return context.read(clientConfigDocument);
}

/** The provider-facing settings; without a configuration every setting is "not configured". */
export function cloudClientSettings(config: ClientConfig | undefined): CloudClientSettings {
  const source = config ?? DEFAULT_CLIENT_CONFIG;
  return {
    accessKey: source.access_key,
    secretKey: source.secret_key,
    endpoint: source.endpoint,
    iamEndpoint: source.iam_endpoint,
    stsEndpoint: source.sts_endpoint,
    stsRegion: source.sts_region,
    allowedStsRegions: source.allowed_sts_regions,
    maxRetries: source.max_retries,
    instanceCacheSeconds: source.instance_cache_seconds,
  };
}

/** The static key pair rotate-root needs, or the reason it cannot run. */
export function staticCredentials(config: ClientConfig | undefined): ClientConfig {
  if (!config) throw new InvalidRequest("can't update client config because it's unset");
  if (config.access_key === '') throw new InvalidRequest("can't update access_key because it's unset");
  if (config.secret_key === '') throw new InvalidRequest("can't update secret_key because it's unset");
  return config;
}
