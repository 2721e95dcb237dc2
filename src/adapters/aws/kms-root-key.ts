/**
 * A root key that never leaves AWS KMS: the keyring's key is wrapped with KMS `Encrypt` and unwrapped with `Decrypt`,
 * over SigV4-signed HTTPS (aws4) and the JSON protocol, without an SDK. KMS is called when a keyring is created or
 * opened, never per value.
 */
import aws4 from 'aws4';
import { z } from 'zod';
import { endpointUrl, ENDPOINT_RULE } from '../../lib/endpoint-url.js';
import { RootKeyUnavailable, WrongRootKey } from '../../lib/errors.js';
import { systemClock } from '../../lib/clocks.js';
import type { Clock } from '../../ports/clock.js';
import type { RootKeyProvider } from '../../ports/root-key.js';
import type { Environment } from './credentials/credentials.js';
import { defaultCredentials } from './credentials/default-chain.js';
import { regionalUrl } from './api/endpoints.js';
import { describeTransportError, isRetryableStatus, withRetries, type Outcome } from './api/retry.js';
import { amzDate, type AwsCredentials } from './api/signing.js';

/** Options of `KmsRootKey`. A missing `keyId`, a malformed `region` or `endpoint` is a TypeError at construction. */
export interface KmsRootKeyOptions {
  /** The KMS key: key id, key ARN, alias name (`alias/...`) or alias ARN. */
  keyId: string;
  /** The key's AWS region, such as `eu-west-1`; requests are signed for it. */
  region: string;
  /** Default `https://kms.<region>.<partition's suffix>` (`amazonaws.com`, `amazonaws.com.cn`, ...); a local fake in tests. */
  endpoint?: string;
  /**
   * Where credentials come from; default the AWS provider's chain without config/client, read from `env`: CLOUD_*
   * keys, AWS_* keys, the shared config and credentials files, web identity, container credentials, then the
   * instance role from IMDSv2.
   */
  credentials?: () => Promise<AwsCredentials>;
  /** Default `process.env`. */
  env?: Environment;
  /** Bound into every wrap (KMS encryption context): a blob wrapped for another context does not unwrap. */
  encryptionContext?: Record<string, string>;
  /** Per attempt; default 10 s. */
  timeoutMs?: number;
  /** Retries of throttling, server faults and transport failures; default 3. */
  maxRetries?: number;
  /** Sends the KMS calls (and the default credential chain's requests); default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Dates the signatures; default the system clock. */
  clock?: Clock;
}

const defaultContext = { purpose: 'strongroom keyring' };

/** A VPC endpoint or a local fake, under the rule of the provider's endpoint overrides (the value is not repeated). */
function kmsOverride(endpoint: string): URL {
  const url = typeof endpoint === 'string' ? endpointUrl(endpoint) : undefined;
  if (!url) throw new TypeError(`KmsRootKey endpoint ${ENDPOINT_RULE}`);
  return url;
}

/** KMS of the region, in its partition (amazonaws.com.cn, c2s.ic.gov, amazonaws.eu, ...); the region must look like one. */
function regionalKms(region: unknown): URL {
  try {
    if (typeof region === 'string') return regionalUrl('kms', region);
  } catch {
    // Refused below, as a configuration error rather than a request's.
  }
  throw new TypeError(`KmsRootKey needs an AWS region such as "eu-west-1", got ${JSON.stringify(region)}`);
}

/** The KMS errors that mean "this key did not wrap these bytes", as opposed to KMS being unavailable. */
const wrongKeyErrors = new Set(['InvalidCiphertextException', 'IncorrectKeyException']);

const encryptAnswer = z.object({ CiphertextBlob: z.base64() });
const decryptAnswer = z.object({ Plaintext: z.base64() });
const errorAnswer = z.object({
  __type: z.string().optional(),
  message: z.string().optional(),
  Message: z.string().optional(),
});

/**
 * A root key that never leaves AWS KMS: `wrapKey` is KMS Encrypt and `unwrapKey` is Decrypt, called only when a
 * keyring is created or opened. A key that did not wrap the bytes is `WrongRootKey`; KMS unreachable, throttling past
 * the retries or refusing access is `RootKeyUnavailable`. The credentials need `kms:Encrypt` and `kms:Decrypt`.
 */
export class KmsRootKey implements RootKeyProvider {
  private readonly endpoint: URL;
  private readonly credentials: () => Promise<AwsCredentials>;
  private readonly clock: Clock;
  private readonly fetch: typeof fetch;

  /** Checks the options, throwing a TypeError for an invalid one; KMS is first called by a wrap or unwrap. */
  constructor(private readonly options: KmsRootKeyOptions) {
    if (typeof options?.keyId !== 'string' || options.keyId === '')
      throw new TypeError('KmsRootKey needs a keyId (a key id, key ARN, alias or alias ARN)');
    this.endpoint = options.endpoint === undefined ? regionalKms(options.region) : kmsOverride(options.endpoint);
    this.clock = options.clock ?? systemClock;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.credentials = options.credentials ?? defaultCredentials(options.env ?? process.env, this.clock, this.fetch);
  }

  async wrapKey(key: Uint8Array): Promise<Uint8Array> {
    const answer = await this.call('Encrypt', { Plaintext: Buffer.from(key).toString('base64') }, encryptAnswer);
    return Buffer.from(answer.CiphertextBlob, 'base64');
  }

  async unwrapKey(wrapped: Uint8Array): Promise<Uint8Array> {
    const answer = await this.call(
      'Decrypt',
      { CiphertextBlob: Buffer.from(wrapped).toString('base64') },
      decryptAnswer,
    );
    return Buffer.from(answer.Plaintext, 'base64');
  }

  private async call<T>(
    action: 'Encrypt' | 'Decrypt',
    fields: Record<string, string>,
    schema: z.ZodType<T>,
  ): Promise<T> {
    const body = JSON.stringify({
      KeyId: this.options.keyId,
      EncryptionContext: this.options.encryptionContext ?? defaultContext,
      ...fields,
    });
    const policy = { maxRetries: this.options.maxRetries ?? 3, baseDelayMs: 200 };
    const credentials = await this.credentials().catch((error: unknown) => {
      throw new RootKeyUnavailable(`no credentials for AWS KMS: ${(error as Error).message}`);
    });
    const text = await withRetries(policy, () => this.attempt(action, body, credentials));
    let parsed;
    try {
      parsed = schema.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) throw new RootKeyUnavailable(`AWS KMS ${action} answered an unexpected document`);
    return parsed.data;
  }

  private async attempt(action: string, body: string, credentials: AwsCredentials): Promise<Outcome<string>> {
    const signed = aws4.sign(
      {
        host: this.endpoint.host,
        path: this.endpoint.pathname,
        method: 'POST',
        service: 'kms',
        region: this.options.region,
        body,
        headers: {
          'Content-Type': 'application/x-amz-json-1.1',
          'X-Amz-Target': `TrentService.${action}`,
          'X-Amz-Date': amzDate(this.clock.now()),
        },
      },
      {
        accessKeyId: credentials.accessKeyId,
        secretAccessKey: credentials.secretAccessKey,
        ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
      },
    );
    // fetch sets Host and Content-Length itself, to the values that were signed.
    const headers = Object.entries(signed.headers ?? {})
      .filter(([name]) => !['host', 'content-length'].includes(name.toLowerCase()))
      .map(([name, value]) => [name, String(value)] as [string, string]);
    const label = `AWS KMS ${action} with key ${this.options.keyId}`;
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(this.endpoint, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      text = await response.text();
    } catch (error) {
      return {
        retryable: true,
        error: new RootKeyUnavailable(`${label} at ${this.endpoint.origin}: ${describeTransportError(error)}`),
      };
    }
    if (response.ok) return { retryable: false, value: text };
    const { code, message } = describeError(text, response.status);
    const detail = `${label} failed: ${code}${message ? `: ${message}` : ''} (HTTP ${response.status})`;
    if (wrongKeyErrors.has(code)) {
      return { retryable: false, error: new WrongRootKey(`${detail}; the KMS key does not open the stored keyring`) };
    }
    const throttled = code.includes('Throttl') || code === 'LimitExceededException';
    return {
      retryable: throttled || isRetryableStatus(response.status),
      retryAfter: response.headers.get('retry-after'),
      error: new RootKeyUnavailable(detail),
    };
  }
}

/** KMS names the error in `__type`, sometimes prefixed with a namespace (`com.amazonaws.kms#NotFoundException`). */
function describeError(text: string, status: number): { code: string; message: string | undefined } {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return { code: `HTTP${status}`, message: undefined };
  }
  const parsed = errorAnswer.safeParse(document);
  const type = parsed.success ? parsed.data.__type : undefined;
  return {
    code: type ? (type.split('#').pop() as string) : `HTTP${status}`,
    message: parsed.success ? (parsed.data.message ?? parsed.data.Message) : undefined,
  };
}
