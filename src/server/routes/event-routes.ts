// KV change events as Server-Sent Events: `GET /v1/sys/events/subscribe/secret?prefix=app/` streams one `kv-change`
// event per committed change of a key below the prefix. An event names a key path and its new version, never a value,
// and reaches the subscriber only while its token is valid and its policies let it read that key's metadata.
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { str } from '../../core/framework/fields.js';
import type { KvEngine } from '../../kv/kv-engine.js';
import type { Clock } from '../../ports/clock.js';
import { fields, type Route } from '../dispatch/route.js';
import type { PolicyStore } from '../policies/policy-store.js';
import type { TokenStore } from '../tokens/token-store.js';
import { EventSubscriptions, type Subscription, type SubscriptionLimits } from './event-subscriptions.js';

const querySchema = z.object({ prefix: str({ maxLength: 4096 }).optional() });
const HEARTBEAT_MS = 15_000;
/**
 * A subscriber that does not read its stream makes the server hold every event for it. Past this many bytes the socket
 * has not taken, the stream is cut: the client reconnects and reads the keys' current state, as after any disconnect.
 * Events are checked and written as they come, so nothing else waits for a subscriber.
 */
export const EVENT_BACKLOG_BYTES = 1024 * 1024;

interface EventRouteOptions {
  kv: KvEngine;
  mount: string;
  tokens: TokenStore;
  policies: PolicyStore;
  clock: Clock;
  limits: SubscriptionLimits;
  /** Told when a subscriber is cut off for falling behind. */
  onSlowSubscriber: (detail: { prefix: string; bufferedBytes: number }) => void;
}

/** Writes a subscription's events to its response, until the response closes. */
function streamEvents(
  res: ServerResponse,
  subscription: Subscription,
  options: EventRouteOptions & { prefix: string },
): () => void {
  const { kv, mount, prefix, onSlowSubscriber } = options;
  const send = (text: string) => {
    if (res.writableEnded || res.destroyed) return;
    res.write(text);
    if (res.writableLength > EVENT_BACKLOG_BYTES) {
      onSlowSubscriber({ prefix, bufferedBytes: res.writableLength });
      res.destroy();
    }
  };
  const unsubscribe = kv.subscribe(prefix, (event) => {
    if (subscription.allows(`${mount}metadata/${event.path}`))
      send(`event: kv-change\nid: ${event.revision}\ndata: ${JSON.stringify(event)}\n\n`);
  });
  // A comment line now and then keeps proxies from closing an idle stream.
  const heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS).unref();
  send(': subscribed\n\n');
  return () => {
    clearInterval(heartbeat);
    unsubscribe();
    subscription.close();
  };
}

export function eventRoutes(options: EventRouteOptions): Route[] {
  const path = `sys/events/subscribe/${options.mount.replace(/\/$/, '')}`;
  const subscriptions = new EventSubscriptions({ ...options, path });
  return [
    {
      pattern: new RegExp(`^${path}$`),
      methods: {
        GET: async ({ request, caller }) => {
          const { prefix = '' } = fields(querySchema, request.query);
          // An authenticated route: the dispatcher has found the caller's token, or refused the request.
          const open = await subscriptions.subscribe(caller!, request.token!);
          return {
            status: 200,
            stream: (res) => {
              const subscription = open({ end: () => res.end() });
              return subscription ? streamEvents(res, subscription, { ...options, prefix }) : () => undefined;
            },
          };
        },
      },
    },
  ];
}
