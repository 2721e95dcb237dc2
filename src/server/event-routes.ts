// KV change events as Server-Sent Events: `GET /v1/sys/events/subscribe/secret?prefix=app/` streams one `kv-change`
// event per committed change of a key below the prefix. An event names a key path and its new version, never a value,
// and reaches the subscriber only while its token is valid and its policies let it read that key's metadata.
import { z } from 'zod';
import { str } from '../core/fields.js';
import type { KvChangeEvent } from '../kv/change-events.js';
import type { KvEngine } from '../kv/kv-engine.js';
import type { PolicyStore } from './policy-store.js';
import { fields, type Route } from './route.js';
import type { TokenStore } from './token-store.js';

const querySchema = z.object({ prefix: str({ maxLength: 4096 }).optional() });
const HEARTBEAT_MS = 15_000;
/**
 * A subscriber that does not read its stream makes the server hold every event for it. Past these bounds (bytes the
 * socket has not taken, events not yet checked and written) the stream is cut: the client reconnects and reads the
 * keys' current state, as after any disconnect.
 */
export const EVENT_BACKLOG = { bytes: 1024 * 1024, events: 10_000 };

interface EventRouteOptions {
  kv: KvEngine;
  mount: string;
  tokens: TokenStore;
  policies: PolicyStore;
  /** Told when a subscriber is cut off for falling behind. */
  onSlowSubscriber: (detail: { prefix: string; bufferedBytes: number; pendingEvents: number }) => void;
}

export function eventRoutes({ kv, mount, tokens, policies, onSlowSubscriber }: EventRouteOptions): Route[] {
  return [
    {
      pattern: new RegExp(`^sys/events/subscribe/${mount.replace(/\/$/, '')}$`),
      methods: {
        GET: async ({ request }) => {
          const { prefix = '' } = fields(querySchema, request.query);
          return {
            status: 200,
            stream: (res) => {
              // Events go out in commit order, each after its permission check.
              let queue = Promise.resolve();
              let pending = 0;
              const cutOff = () => {
                onSlowSubscriber({ prefix, bufferedBytes: res.writableLength, pendingEvents: pending });
                res.destroy();
              };
              const deliver = async (event: KvChangeEvent) => {
                const caller = await tokens.find(request.token);
                if (!caller) return void res.end();
                const acl = await policies.aclFor(caller.policies);
                if (!acl.allows('read', `${mount}metadata/${event.path}`)) return;
                res.write(`event: kv-change\nid: ${event.revision}\ndata: ${JSON.stringify(event)}\n\n`);
                if (res.writableLength > EVENT_BACKLOG.bytes) cutOff();
              };
              const unsubscribe = kv.subscribe(prefix, (event) => {
                if (res.destroyed) return;
                if (++pending > EVENT_BACKLOG.events) return cutOff();
                queue = queue
                  .then(() => (res.destroyed ? undefined : deliver(event)))
                  .catch(() => void res.end())
                  .finally(() => void pending--);
              });
              // A comment line now and then keeps proxies from closing an idle stream.
              const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS).unref();
              res.write(': subscribed\n\n');
              return () => {
                clearInterval(heartbeat);
                unsubscribe();
              };
            },
          };
        },
      },
    },
  ];
}
