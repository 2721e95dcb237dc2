// GET sys/metrics?format=prometheus: the server's metrics in the Prometheus text format, at Vault's path. It needs
// sudo, as in Vault, unless the operator lets anyone scrape it (Vault's unauthenticated_metrics_access).
import { InvalidRequest } from '../../lib/errors.js';
import type { Route } from '../dispatch/route.js';
import type { ServerMetrics } from '../metrics/server-metrics.js';

/** The sys/metrics route over `metrics`; `unauthenticated` serves it without a token. */
export function metricsRoute(metrics: ServerMetrics, { unauthenticated = false } = {}): Route {
  return {
    pattern: /^sys\/metrics$/,
    sudo: true,
    unauthenticated,
    methods: {
      GET: async ({ request }) => {
        // Vault answers go-metrics' JSON without the parameter; this server has only the Prometheus form, and says so.
        if (request.query.format !== 'prometheus')
          throw new InvalidRequest(
            'metrics are served in the Prometheus text format only: GET /v1/sys/metrics?format=prometheus',
          );
        const { contentType, text } = await metrics.exposition();
        return { status: 200, text: { contentType, body: text } };
      },
    },
  };
}
