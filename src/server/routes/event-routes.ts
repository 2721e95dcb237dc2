// KV change events as Server-Sent Events: `GET /v1/sys/events/subscribe/secret?prefix=app/` streams one `kv-change`
// event per committed change of a key below the prefix. An event names a key path and its new version, never a value,
// and reaches the subscriber only while its token is valid and its policies let it read that key's metadata. Each event
// has an `id:` (event-log.ts); a client that reconnects with the last one as `Last-Event-ID` resumes after it.
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { str } from '../../core/framework/fields.js';
import { NotFound } from '../../lib/errors.js';
import type { KvEngine } from '../../kv/kv-engine.js';
import type { Clock } from '../../ports/clock.js';
import { fields, type Route } from '../dispatch/route.js';
import type { PolicyStore } from '../policies/policy-store.js';
import type { TokenStore } from '../tokens/token-store.js';
import { EventLog, type LoggedEvent } from './event-log.js';
import { EventSubscriptions, type Subscription, type SubscriptionLimits } from './event-subscriptions.js';

const querySchema = z.object({ prefix: str({ maxLength: 4096 }).optional() });
const HEARTBEAT_MS = 15_000;
/**
 * A subscriber that does not read its stream makes the server hold every event for it. Past this many bytes the socket
 * has not taken, the stream is cut: the client reconnects, and resumes with `Last-Event-ID`, as after any disconnect.
 * Events are checked and written as they come, so nothing else waits for a subscriber.
 */
export const EVENT_BACKLOG_BYTES = 1024 * 1024;

interface EventRouteOptions {
  kv: KvEngine;
  mount: string;
  /** Whether `kv` is still the engine mounted at `mount`: once moved or disabled, its events name other paths. */
  served: () => Promise<boolean>;
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
  options: EventRouteOptions & { prefix: string; log: EventLog; lastEventId: string | undefined },
): () => void {
  const { mount, prefix, onSlowSubscriber, log, lastEventId } = options;
  const send = (text: string) => {
    if (res.writableEnded || res.destroyed) return;
    res.write(text);
    if (res.writableLength > EVENT_BACKLOG_BYTES) {
      onSlowSubscriber({ prefix, bufferedBytes: res.writableLength });
      res.destroy();
    }
  };
  const write = ({ id, event }: LoggedEvent) => {
    if (event.path.startsWith(prefix) && subscription.allows(`${mount}metadata/${event.path}`))
      send(`event: kv-change\nid: ${id}\ndata: ${JSON.stringify(event)}\n\n`);
  };
  const { start, backlog, now } = log.resume(lastEventId);
  send(': subscribed\n\n');
  // A block with an id and no data is no event, but the client keeps its id: a reconnect before the first event
  // resumes from here. A stream that cannot resume says so first, so the client rereads what it needs.
  if (start === 'fresh') send(`id: ${now}\n\n`);
  if (start === 'unknown' || start === 'expired')
    send(`event: reset\nid: ${now}\ndata: ${JSON.stringify({ reason: start })}\n\n`);
  for (const logged of backlog) write(logged);
  const unsubscribe = log.listen(write);
  // A comment line now and then keeps proxies from closing an idle stream.
  const heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS).unref();
  return () => {
    clearInterval(heartbeat);
    unsubscribe();
    subscription.close();
  };
}

export function eventRoutes(options: EventRouteOptions): Route[] {
  const path = `sys/events/subscribe/${options.mount.replace(/\/$/, '')}`;
  const subscriptions = new EventSubscriptions({ ...options, path });
  const log = new EventLog(options.kv);
  return [
    {
      pattern: new RegExp(`^${path}$`),
      methods: {
        GET: async ({ request, caller }) => {
          const { prefix = '' } = fields(querySchema, request.query);
          if (!(await options.served()))
            throw new NotFound(
              `change events follow the KV engine first mounted at ${options.mount}, which is no longer there`,
            );
          // An authenticated route: the dispatcher has found the caller's token, or refused the request.
          const open = await subscriptions.subscribe(caller!, request.token!);
          // Once the log runs, other processes' changes reach it: the stream opens after that.
          await log.start();
          const header = request.headers['last-event-id'];
          const lastEventId = Array.isArray(header) ? header[0] : header;
          return {
            status: 200,
            stream: (res) => {
              const subscription = open({ end: () => res.end() });
              return subscription
                ? streamEvents(res, subscription, { ...options, prefix, log, lastEventId })
                : () => undefined;
            },
          };
        },
      },
    },
  ];
}
