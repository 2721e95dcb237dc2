// The stored webhooks, one document each. Over `strongroom server` the storage is an EncryptedStorage, so each secret
// is encrypted at rest with everything else; embedded over a plain storage, the storage's own protection is all it has.
import type { JsonStore } from '../../core/store/stored-json.js';
import type { StoredWebhook } from './webhook-definition.js';

/** Where the webhooks' state lives in the storage: definitions, queues, cursors and the lease. */
export const WEBHOOKS_ROOT = 'sys/webhooks/';
const HOOKS = `${WEBHOOKS_ROOT}hooks/`;

export class WebhookStore {
  constructor(private readonly store: JsonStore) {}

  read(name: string): Promise<StoredWebhook | undefined> {
    return this.store.get<StoredWebhook>(HOOKS + name);
  }

  write(hook: StoredWebhook): Promise<void> {
    return this.store.put(HOOKS + hook.name, hook);
  }

  remove(name: string): Promise<void> {
    return this.store.delete(HOOKS + name);
  }

  async names(): Promise<string[]> {
    return (await this.store.list(HOOKS)).filter((name) => !name.endsWith('/')).sort();
  }

  /** Every webhook, read afresh: another process may have changed them. */
  async all(): Promise<StoredWebhook[]> {
    const hooks = await Promise.all((await this.names()).map((name) => this.read(name)));
    return hooks.filter((hook): hook is StoredWebhook => hook !== undefined);
  }
}
