import { AwsCloudProvider } from './adapters/aws/provider.js';
import { AuthEngine } from './auth/auth-engine.js';
import type { AuthEngineOptions } from './auth/auth-context.js';

export interface AuthMethodOptions extends Omit<AuthEngineOptions, 'cloud'> {
  /** Defaults to the built-in SDK-less AWS provider, reading credentials from config/client, then `env`, then IMDSv2. */
  cloud?: AuthEngineOptions['cloud'];
}

/**
 * The public cloud identity auth method. It lives above the engines because its default cloud provider is an adapter;
 * the engine itself (src/auth) never imports one.
 */
export class AuthMethod extends AuthEngine {
  constructor(options: AuthMethodOptions) {
    super({ ...options, cloud: options.cloud ?? new AwsCloudProvider({ env: options.env }) });
  }
}
