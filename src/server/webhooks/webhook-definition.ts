// A webhook as stored and as sys/webhooks/:name reads it: where to send, which mount and key prefix it watches, which
// operations, and the secret its deliveries are signed with. The secret is written, never read back.
import { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import { formatTimestamp } from '../../lib/time.js';
import { str, stringList } from '../../core/framework/fields.js';
import type { KvChangeOperation } from '../../kv/index.js';
import { fields } from '../dispatch/route.js';

/** Every operation of a KV change event, in the order docs/server.md lists them: what `events` may name. */
export const WEBHOOK_EVENTS: readonly KvChangeOperation[] = [
  'write',
  'patch',
  'delete',
  'undelete',
  'destroy',
  'metadata-write',
  'metadata-patch',
  'metadata-delete',
  'move',
  'copy',
];

/** A webhook's stored definition. */
export interface StoredWebhook {
  name: string;
  url: string;
  /** The KV v2 mount's path, ending in '/'. */
  mount: string;
  /** Key paths that start with it ('' for all). */
  prefix: string;
  events: KvChangeOperation[];
  secret: string;
  /** Epoch ms: changes made before the webhook existed are not sent to it. */
  created: number;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const MAX_SECRET = 1024;

/** The secret field: a message about it never repeats what was sent. */
const secretField = z.unknown().transform((value, ctx): string => {
  if (typeof value === 'string' && value.length > 0 && value.length <= MAX_SECRET) return value;
  ctx.issues.push({ code: 'custom', message: `must be a string of 1 to ${MAX_SECRET} characters`, input: undefined });
  return z.NEVER;
});

const writeSchema = z.object({
  url: str({ maxLength: 2048 }).optional(),
  mount: str({ maxLength: 256 }).optional(),
  prefix: str({ maxLength: 1024 }).optional(),
  events: stringList().optional(),
  secret: secretField.optional(),
});

/** What a write of sys/webhooks/:name gives, checked; fields left out are absent. */
export type WebhookInput = z.infer<typeof writeSchema>;

/** Refuses (400) a name that could not be a path segment of its own. */
export function checkName(name: string): string {
  if (!NAME.test(name))
    throw new InvalidRequest(
      'a webhook name is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit',
    );
  return name;
}

/** Parses a write's body; unknown fields are refused, so a misspelt one is not silently dropped. */
export function webhookInput(body: unknown): WebhookInput {
  const given = body && typeof body === 'object' ? Object.keys(body) : [];
  const unknown = given.filter((key) => !(key in writeSchema.shape));
  if (unknown.length > 0) throw new InvalidRequest(`unknown field ${JSON.stringify(unknown[0])}`);
  return fields(writeSchema, body);
}

/** The operations named, checked against {@link WEBHOOK_EVENTS}; none named means all. */
export function eventsOf(named: readonly string[] | undefined): KvChangeOperation[] {
  if (named === undefined || named.length === 0) return [...WEBHOOK_EVENTS];
  const wrong = named.find((event) => !(WEBHOOK_EVENTS as readonly string[]).includes(event));
  if (wrong !== undefined)
    throw new InvalidRequest(`"events": ${JSON.stringify(wrong)} is none of ${WEBHOOK_EVENTS.join(', ')}`);
  return [...new Set(named)] as KvChangeOperation[];
}

/** The mount path as stored: no leading slash, one trailing slash. */
export function mountPathOf(mount: string): string {
  const trimmed = mount.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') throw new InvalidRequest('"mount" names the KV mount, e.g. "secret/"');
  return `${trimmed}/`;
}

/** What a read answers: everything but the secret, which is only said to be set. */
export function webhookView(hook: StoredWebhook) {
  return {
    name: hook.name,
    url: hook.url,
    mount: hook.mount,
    prefix: hook.prefix,
    events: hook.events,
    secret_set: hook.secret.length > 0,
    created_time: formatTimestamp(hook.created),
  };
}
