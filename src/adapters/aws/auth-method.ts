import { lazyAwsProvider } from './lazy-provider.js';
import { AuthEngine } from '../../auth/auth-engine.js';
import type { AuthEngineOptions } from '../../auth/context/engine-options.js';
import { login } from '../../auth/login/dispatch.js';
import { loginFields } from '../../auth/paths/login.js';
import { parseInput } from '../../core/framework/parse-input.js';
import type { AuthGrant } from '../../core/framework/request.js';

/** Options of `AuthMethod`: the engine's, with `cloud` optional. Only `storage` is required. */
export interface AuthMethodOptions extends Omit<AuthEngineOptions, 'cloud'> {
  /** Defaults to the built-in SDK-less AWS provider, reading credentials from config/client, then `env`, then IMDSv2. */
  cloud?: AuthEngineOptions['cloud'];
}

/**
 * A login body: `role` plus either the ec2 fields (`pkcs7`, or `identity` and `signature`; `nonce` from an earlier
 * login) or the iam fields (a signed sts:GetCallerIdentity request, as buildIamLoginBody packs it).
 */
export interface LoginBody {
  role?: string;
  pkcs7?: string;
  identity?: string;
  signature?: string;
  nonce?: string;
  iam_http_request_method?: string;
  iam_request_url?: string;
  iam_request_body?: string;
  iam_request_headers?: string | Record<string, string | string[]>;
}

/**
 * The public cloud identity auth method: the auth engine with the AWS adapter as its default cloud provider. It lives
 * with the adapter because it plugs the adapter in; the engine itself (src/auth) never imports one.
 */
export class AuthMethod extends AuthEngine {
  /**
   * Refuses invalid options with a TypeError. Without `cloud`, the built-in AWS provider is loaded when the engine
   * first calls the cloud.
   */
  constructor(options: AuthMethodOptions) {
    super({ ...options, cloud: options.cloud ?? lazyAwsProvider({ env: options.env }) });
  }

  /**
   * `POST login` as a typed method: the grant to mint a token from. Rejects with InvalidRequest, AuthenticationRefused
   * or CloudUnavailable where handle() answers 400, 403 or 502.
   */
  async login(body: LoginBody, options: { remoteAddress?: string } = {}): Promise<AuthGrant> {
    const fields = parseInput(loginFields, body);
    // The login type is chosen by which fields are present, even empty ones, as through handle().
    const has = (field: string) => Object.prototype.hasOwnProperty.call(body, field);
    return login(this.context, { fields, has, remoteAddress: options.remoteAddress });
  }
}
