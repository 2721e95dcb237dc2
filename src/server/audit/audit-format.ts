// Vault's audit entry shape: one JSON entry per request and one per response. Every string a client sent or received is
// replaced by its HMAC-SHA256 under the device's own key, except the fields Vault leaves clear (request id, operation,
// path, addresses, policy names, display names, error text), so the log proves who did what without holding a secret;
// a token in the path (Vault's older auth/token/lookup/<token>) is hashed too.
import { hmacSha256Hex } from '../../lib/hmac-sha256.js';
import { redactTokenInPath } from '../tokens/token-path.js';
import type { TokenRecord } from '../tokens/token-record.js';

// Token metadata stays readable, as in Vault, except this entry: an ec2 login's nonce is the instance's credential for
// its later logins, and whoever read it from the log could log in as the instance with its public identity document.
const SECRET_METADATA = 'nonce';
/** The fields of a `wrap_info` that are credentials, or name one. */
const WRAP_SECRETS = ['token', 'accessor', 'wrapped_accessor'];

export interface AuditEvent {
  time: Date;
  requestId: string;
  operation: string;
  path: string;
  mountType: string;
  data: unknown;
  token: string | undefined;
  caller: TokenRecord | undefined;
  remoteAddress: string | undefined;
  remotePort: number | undefined;
}

export interface AuditOutcome {
  status: number;
  body: Record<string, unknown> | undefined;
}

/** The entries one audit device writes, hashed with that device's key. */
export class AuditFormat {
  readonly #keyed: (message: string) => string;

  constructor(key: Buffer) {
    this.#keyed = hmacSha256Hex(key);
  }

  /** What the device writes in place of `input` (`sys/audit-hash`). */
  hash(input: string): string {
    return this.#hmac(input);
  }

  #hmac(value: string): string {
    return `hmac-sha256:${this.#keyed(value)}`;
  }

  /** Every string inside `value` hashed; keys, numbers, booleans and nulls stay. Iterative: bodies may be deep. */
  #hashAll(value: unknown): unknown {
    if (typeof value === 'string') return this.#hmac(value);
    if (typeof value !== 'object' || value === null) return value;
    const root: unknown = Array.isArray(value) ? [] : {};
    const stack: Array<[source: Record<string, unknown>, target: Record<string, unknown>]> = [
      [value as Record<string, unknown>, root as Record<string, unknown>],
    ];
    while (stack.length > 0) {
      const [source, target] = stack.pop()!;
      for (const [key, item] of Object.entries(source)) {
        let copy: unknown = item;
        if (typeof item === 'string') copy = this.#hmac(item);
        else if (typeof item === 'object' && item !== null) {
          copy = Array.isArray(item) ? [] : {};
          stack.push([item as Record<string, unknown>, copy as Record<string, unknown>]);
        }
        Object.defineProperty(target, key, { value: copy, enumerable: true, writable: true, configurable: true });
      }
    }
    return root;
  }

  /**
   * Error text with every value the client sent, where it is quoted back, replaced by its hash: a message such as
   * `expected a JSON object, got "<secret>"` stays readable without the secret. Names of fields the client sent are
   * left alone, since messages quote those too.
   */
  #errorText(text: string, sent: unknown, path: string): string {
    const values = new Set<string>();
    const names = new Set<string>();
    const stack: unknown[] = [sent];
    while (stack.length > 0) {
      const value = stack.pop();
      if (typeof value === 'string') values.add(value);
      else if (typeof value === 'object' && value !== null) {
        for (const [name, item] of Object.entries(value)) {
          if (!Array.isArray(value)) names.add(name);
          stack.push(item);
        }
      }
    }
    let result = text.split(JSON.stringify(path)).join(JSON.stringify(this.#pathOf(path)));
    for (const value of values) {
      const quoted = JSON.stringify(value);
      if (!names.has(value) && result.includes(quoted))
        result = result.split(quoted).join(JSON.stringify(this.#hmac(value)));
    }
    return result;
  }

  #pathOf(path: string): string {
    return redactTokenInPath(path, (token) => this.#hmac(token));
  }

  /** The named string fields of `value`, hashed. */
  #hashedFields(value: Record<string, unknown>, names: readonly string[]): Record<string, string> {
    return Object.fromEntries(
      names.flatMap((name) => (typeof value[name] === 'string' ? [[name, this.#hmac(value[name])]] : [])),
    );
  }

  #metadataOf(metadata: unknown): unknown {
    if (typeof metadata !== 'object' || metadata === null || !(SECRET_METADATA in metadata)) return metadata;
    const secret = (metadata as Record<string, unknown>)[SECRET_METADATA];
    return { ...metadata, [SECRET_METADATA]: typeof secret === 'string' ? this.#hmac(secret) : secret };
  }

  #authOf(event: AuditEvent): Record<string, unknown> | undefined {
    const { caller } = event;
    if (!caller) return undefined;
    return {
      client_token: event.token ? this.#hmac(event.token) : '',
      accessor: this.#hmac(caller.accessor),
      display_name: caller.displayName,
      policies: caller.policies,
      token_policies: caller.policies,
      metadata: this.#metadataOf(caller.meta),
      entity_id: '',
      token_type: 'service',
      token_ttl: caller.creationTtl,
      token_issue_time: new Date(caller.issuedAt).toISOString(),
    };
  }

  #requestOf(event: AuditEvent): Record<string, unknown> {
    return {
      id: event.requestId,
      operation: event.operation,
      mount_type: event.mountType,
      client_token: event.token ? this.#hmac(event.token) : '',
      client_token_accessor: event.caller ? this.#hmac(event.caller.accessor) : '',
      namespace: { id: 'root' },
      path: this.#pathOf(event.path),
      data: event.data === undefined ? null : this.#hashAll(event.data),
      remote_address: event.remoteAddress ?? '',
      remote_port: event.remotePort ?? 0,
    };
  }

  requestEntry(event: AuditEvent): Record<string, unknown> {
    return {
      time: event.time.toISOString(),
      type: 'request',
      auth: this.#authOf(event),
      request: this.#requestOf(event),
    };
  }

  responseEntry(event: AuditEvent, outcome: AuditOutcome, finished: Date): Record<string, unknown> {
    const body = outcome.body ?? {};
    const errors = Array.isArray(body.errors) ? (body.errors as unknown[]).map(String) : undefined;
    const auth = body.auth && typeof body.auth === 'object' ? (body.auth as Record<string, unknown>) : undefined;
    const wrapInfo =
      body.wrap_info && typeof body.wrap_info === 'object' ? (body.wrap_info as Record<string, unknown>) : undefined;
    const response = {
      mount_type: event.mountType,
      status_code: outcome.status,
      ...(body.data !== undefined && body.data !== null ? { data: this.#hashAll(body.data) } : {}),
      ...(auth
        ? {
            auth: {
              ...auth,
              client_token: typeof auth.client_token === 'string' ? this.#hmac(auth.client_token) : '',
              accessor: typeof auth.accessor === 'string' ? this.#hmac(auth.accessor) : '',
              metadata: this.#metadataOf(auth.metadata),
            },
          }
        : {}),
      // A wrapped answer is not in the entry at all (it is not in the answer either); its wrapping token and the
      // accessors are hashed, as Vault logs them, so that the log shows whether a wrapping token was later used.
      ...(wrapInfo ? { wrap_info: { ...wrapInfo, ...this.#hashedFields(wrapInfo, WRAP_SECRETS) } } : {}),
      ...(Array.isArray(body.warnings) ? { warnings: body.warnings } : {}),
    };
    return {
      time: finished.toISOString(),
      type: 'response',
      auth: this.#authOf(event),
      request: this.#requestOf(event),
      response,
      ...(errors && errors.length > 0
        ? { error: this.#errorText(errors.join('; '), event.data, event.path) }
        : outcome.status >= 400
          ? { error: `status ${outcome.status}` }
          : {}),
    };
  }
}
