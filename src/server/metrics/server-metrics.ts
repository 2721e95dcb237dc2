// One server's metrics in one prom-client registry (not the process-wide default, so that several servers in one
// process each count their own), and what the server's edges tell it.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { loginMethod, routeFamily, statusClass } from './route-family.js';

/** Latency buckets in seconds: from a cached read (about a millisecond) to a storage timeout (seconds). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What the request loop reports of one answered request. */
export interface ObservedRequest {
  readonly method: string | undefined;
  /** Below /v1/, decoded; undefined when the request never got that far. */
  readonly path: string | undefined;
  readonly body: unknown;
  /** Undefined when the client left before the answer. */
  readonly status: number | undefined;
  readonly seconds: number;
}

/** The metrics of one server. */
export class ServerMetrics {
  // Private like the metrics that register in it, so that a build lowering private fields keeps it first.
  readonly #registry = new Registry();
  readonly #requests = new Counter({
    name: 'strongroom_http_requests_total',
    help: 'Requests answered, by route family and status class.',
    labelNames: ['family', 'status_class'],
    registers: [this.#registry],
  });
  readonly #latency = new Histogram({
    name: 'strongroom_http_request_duration_seconds',
    help: 'Time from reading a request to answering it, by route family and status class.',
    labelNames: ['family', 'status_class'],
    buckets: LATENCY_BUCKETS,
    registers: [this.#registry],
  });
  readonly #storage = new Histogram({
    name: 'strongroom_storage_operation_duration_seconds',
    help: 'Storage calls (get, put, delete, list, commit, ...) and their latency, failed ones included.',
    labelNames: ['operation'],
    buckets: LATENCY_BUCKETS,
    registers: [this.#registry],
  });
  readonly #storageErrors = new Counter({
    name: 'strongroom_storage_errors_total',
    help: 'Storage calls that failed, by operation.',
    labelNames: ['operation'],
    registers: [this.#registry],
  });
  readonly #logins = new Counter({
    name: 'strongroom_logins_total',
    help: 'Logins to the cloud auth method, by method (iam, ec2) and outcome (success, denied, error).',
    labelNames: ['method', 'outcome'],
    registers: [this.#registry],
  });
  readonly #auditFailures = new Counter({
    name: 'strongroom_audit_write_failures_total',
    help: 'Audit log lines that could not be written (each refused its request).',
    registers: [this.#registry],
  });
  readonly #subscribers = new Gauge({
    name: 'strongroom_event_subscribers',
    help: 'Change-event streams open now.',
    registers: [this.#registry],
  });
  #liveTokens: () => number | undefined = () => undefined;
  #processMetrics = false;

  constructor() {
    const liveTokens = () => this.#liveTokens();
    new Gauge({
      name: 'strongroom_tokens_live',
      help: 'Live client tokens as this process counts them (recounted from storage at each periodic sweep).',
      registers: [this.#registry],
      collect() {
        const count = liveTokens();
        if (count !== undefined) this.set(count);
      },
    });
  }

  /** Where the live-token count comes from, once the token store is ready. */
  countTokens(read: () => number): void {
    this.#liveTokens = read;
  }

  /** One request answered (or abandoned by its client). */
  request({ method, path, body, status, seconds }: ObservedRequest): void {
    const labels = { family: path === undefined ? 'other' : routeFamily(path), status_class: statusClass(status) };
    this.#requests.inc(labels);
    this.#latency.observe(labels, seconds);
    if (labels.family.endsWith('/login') && (method === 'POST' || method === 'PUT') && status !== undefined) {
      const outcome = status < 300 ? 'success' : status < 500 ? 'denied' : 'error';
      this.#logins.inc({ method: loginMethod(body), outcome });
    }
  }

  /** One storage call finished; `failed` when it threw. */
  storageCall(operation: string, seconds: number, failed: boolean): void {
    this.#storage.observe({ operation }, seconds);
    if (failed) this.#storageErrors.inc({ operation });
  }

  /** An audit line that could not be written. */
  auditFailure(): void {
    this.#auditFailures.inc();
  }

  /** An event stream opened; call the answer when it closes. */
  subscriberOpened(): () => void {
    this.#subscribers.inc();
    let closed = false;
    return () => {
      if (!closed) this.#subscribers.dec();
      closed = true;
    };
  }

  /**
   * The Prometheus text exposition. Node's process metrics (CPU, memory, event-loop delay, ...) join at the first
   * scrape, so that a server nobody scrapes does not watch its event loop.
   */
  async exposition(): Promise<{ contentType: string; text: string }> {
    if (!this.#processMetrics) {
      this.#processMetrics = true;
      collectDefaultMetrics({ register: this.#registry });
    }
    return { contentType: this.#registry.contentType, text: await this.#registry.metrics() };
  }
}
