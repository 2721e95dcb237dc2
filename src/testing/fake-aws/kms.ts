/**
 * A fake AWS KMS for tests, over real HTTP: `Encrypt`, `Decrypt` and `CreateKey`-like setup in memory, answering in
 * the JSON protocol, and refusing any request whose SigV4 signature, date or credential scope does not check out.
 * Self-contained: `FakeKms.handle` mounts into any node:http server; `startFakeKms` serves it alone on 127.0.0.1.
 */
import { createCipheriv, createDecipheriv, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import aws4 from 'aws4';

/** Options of `FakeKms` and `startFakeKms`; only `credentials` is required. */
export interface FakeKmsOptions {
  /** Accepted credentials: access key id to secret access key. */
  credentials: Record<string, string>;
  /** Default 123456789012. */
  accountId?: string;
  /** Default us-east-1; requests must be signed for it. */
  region?: string;
  /** What "now" is for the signature's date check; default the system time. */
  now?: () => Date;
}

/** One entry of `FakeKms.calls`. */
export interface FakeKmsCall {
  /** `Encrypt`, `Decrypt`, or the unsupported action asked for. */
  action: string;
  /** The request's `KeyId`; undefined when it has none (a Decrypt may leave it out). */
  keyId: string | undefined;
  /** The key the request was signed with. */
  accessKeyId: string;
}

class KmsError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const authorizationPattern =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;
/** AWS refuses a signature dated more than 15 minutes away from its own clock. */
const maxSkewMs = 15 * 60_000;

/**
 * A fake AWS KMS: keys made with `createKey`, Encrypt and Decrypt in the JSON protocol, and requests refused unless
 * signed (SigV4, within 15 minutes, for its region) with one of `credentials`. Serve it with `startFakeKms`, or mount
 * `handle` in a node:http server of your own.
 */
export class FakeKms {
  /** Every call that passed the signature check, in order. */
  readonly calls: FakeKmsCall[] = [];
  private readonly keys = new Map<string, Buffer>();
  private readonly aliases = new Map<string, string>();
  private readonly accountId: string;
  /** The region requests must be signed for. */
  readonly region: string;

  constructor(private readonly options: FakeKmsOptions) {
    this.accountId = options.accountId ?? '123456789012';
    this.region = options.region ?? 'us-east-1';
  }

  /** A new symmetric key, optionally reachable by `alias/<name>`; answers its ARN. */
  createKey(alias?: string): string {
    const id = randomUUID();
    this.keys.set(id, randomBytes(32));
    if (alias) this.aliases.set(alias.startsWith('alias/') ? alias : `alias/${alias}`, id);
    return `arn:aws:kms:${this.region}:${this.accountId}:key/${id}`;
  }

  /** A node:http request listener answering one KMS request; bound, so it can be passed as is. */
  readonly handle = (request: IncomingMessage, response: ServerResponse): void => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let status = 200;
      let answer: unknown;
      try {
        answer = this.answer(request, Buffer.concat(chunks));
      } catch (error) {
        const failure = error instanceof KmsError ? error : new KmsError(500, 'KMSInternalException', 'internal error');
        status = failure.status;
        answer = { __type: failure.type, message: failure.message };
      }
      response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1' });
      response.end(JSON.stringify(answer));
    });
  };

  private answer(request: IncomingMessage, body: Buffer): unknown {
    const accessKeyId = this.verifySignature(request, body);
    const action = /^TrentService\.(\w+)$/.exec(String(request.headers['x-amz-target'] ?? ''))?.[1];
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw new KmsError(400, 'SerializationException', 'the body is not JSON');
    }
    const keyId = typeof input.KeyId === 'string' ? input.KeyId : undefined;
    this.calls.push({ action: action ?? '', keyId, accessKeyId });
    const context = contextBytes(input.EncryptionContext);
    if (action === 'Encrypt') return this.encrypt(keyId, input.Plaintext, context);
    if (action === 'Decrypt') return this.decrypt(keyId, input.CiphertextBlob, context);
    throw new KmsError(400, 'UnknownOperationException', `unsupported action ${action}`);
  }

  private resolve(keyId: string | undefined): string {
    if (!keyId) throw new KmsError(400, 'ValidationException', 'KeyId is required');
    const alias = keyId.startsWith('arn:') ? keyId.slice(keyId.indexOf(':alias/') + 1) : keyId;
    const id = this.aliases.get(alias) ?? keyId.split(':key/').pop()!;
    if (!this.keys.has(id)) throw new KmsError(400, 'NotFoundException', `Key '${keyId}' does not exist`);
    return id;
  }

  private encrypt(keyId: string | undefined, plaintext: unknown, context: Buffer): unknown {
    const id = this.resolve(keyId);
    if (typeof plaintext !== 'string' || plaintext.length === 0)
      throw new KmsError(400, 'ValidationException', 'Plaintext is required');
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(id)!, nonce);
    cipher.setAAD(context);
    const sealed = Buffer.concat([
      cipher.update(Buffer.from(plaintext, 'base64')),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    const blob = Buffer.concat([Buffer.from([id.length]), Buffer.from(id), nonce, sealed]);
    return { CiphertextBlob: blob.toString('base64'), KeyId: `arn:aws:kms:${this.region}:${this.accountId}:key/${id}` };
  }

  private decrypt(keyId: string | undefined, blobText: unknown, context: Buffer): unknown {
    const blob = typeof blobText === 'string' ? Buffer.from(blobText, 'base64') : Buffer.alloc(0);
    const idLength = blob[0] ?? 0;
    const id = blob.subarray(1, 1 + idLength).toString();
    const material = this.keys.get(id);
    if (!material || blob.length < 1 + idLength + 28)
      throw new KmsError(400, 'InvalidCiphertextException', 'invalid ciphertext');
    if (keyId !== undefined && this.resolve(keyId) !== id) {
      throw new KmsError(
        400,
        'IncorrectKeyException',
        'The key ID in the request does not identify the key that encrypted the ciphertext',
      );
    }
    const nonce = blob.subarray(1 + idLength, 13 + idLength);
    const sealed = blob.subarray(13 + idLength);
    try {
      const decipher = createDecipheriv('aes-256-gcm', material, nonce);
      decipher.setAAD(context);
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      const plaintext = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
      return {
        Plaintext: plaintext.toString('base64'),
        KeyId: `arn:aws:kms:${this.region}:${this.accountId}:key/${id}`,
      };
    } catch {
      throw new KmsError(400, 'InvalidCiphertextException', 'invalid ciphertext');
    }
  }

  /** Re-signs what arrived (the signed headers with their received values) and compares; answers the access key id. */
  private verifySignature(request: IncomingMessage, body: Buffer): string {
    const match = authorizationPattern.exec(String(request.headers.authorization ?? ''));
    if (!match) throw new KmsError(400, 'MissingAuthenticationTokenException', 'missing or malformed Authorization');
    const [, accessKeyId, date, region, service, signedHeaders, signature] = match as unknown as string[];
    const secret = this.options.credentials[accessKeyId as string];
    if (secret === undefined)
      throw new KmsError(400, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
    const amzDate = String(request.headers['x-amz-date'] ?? '');
    const when = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
    const now = (this.options.now ?? (() => new Date()))().getTime();
    if (!Number.isFinite(when) || Math.abs(now - when) > maxSkewMs || !amzDate.startsWith(date as string)) {
      throw new KmsError(400, 'InvalidSignatureException', 'Signature expired or dated in the future');
    }
    if (service !== 'kms' || region !== this.region)
      throw new KmsError(400, 'InvalidSignatureException', 'wrong credential scope');
    const headers: Record<string, string> = {};
    for (const name of (signedHeaders as string).split(';')) headers[name] = String(request.headers[name] ?? '');
    const expected = aws4.sign(
      {
        host: headers.host,
        path: request.url,
        method: request.method,
        service: 'kms',
        region,
        body: body.toString('utf8'),
        headers,
      },
      { accessKeyId: accessKeyId as string, secretAccessKey: secret },
    );
    const computed = /Signature=([0-9a-f]{64})$/.exec(String(expected.headers?.Authorization ?? ''))?.[1] ?? '';
    if (computed.length !== 64 || !timingSafeEqual(Buffer.from(computed), Buffer.from(signature as string))) {
      throw new KmsError(
        400,
        'InvalidSignatureException',
        'The request signature we calculated does not match the signature you provided.',
      );
    }
    return accessKeyId as string;
  }
}

/** The encryption context as bytes to bind: its pairs sorted by name, so the order of the JSON does not matter. */
function contextBytes(context: unknown): Buffer {
  const pairs = context && typeof context === 'object' ? Object.entries(context as Record<string, unknown>) : [];
  return Buffer.from(JSON.stringify(pairs.map(([name, value]) => [name, String(value)]).sort()));
}

/** What `startFakeKms` resolves to. */
export interface RunningFakeKms {
  /** The fake itself, to create keys and read its calls. */
  kms: FakeKms;
  /** The endpoint to give KmsRootKey. */
  url: string;
  /** Closes the server, dropping open connections. */
  stop(): Promise<void>;
}

/** Serves a FakeKms alone on 127.0.0.1 at a free port. */
export async function startFakeKms(options: FakeKmsOptions): Promise<RunningFakeKms> {
  const kms = new FakeKms(options);
  const server = http.createServer(kms.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    kms,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
