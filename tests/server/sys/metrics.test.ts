// GET /v1/sys/metrics?format=prometheus through the real server over HTTP, its output read by a Prometheus text
// parser: requests by route family and status class with their latency histogram, storage calls and their failures,
// logins by method and outcome, live tokens, event subscribers, audit write failures; and who may read it (sudo, or
// anyone when the operator says so, also through the `strongroom server` command's environment).
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../../src/ports/storage.js';
import { testStorage } from '../../support/test-storage.js';
import { openStream } from '../events/events-stream.js';
import { serveCommand, type ServedCommand } from '../../cli/run-cli.js';
import { builtCli, request, startServer } from '../harness.js';
import { startTokenServer, type TokenServer } from '../tokens/token-harness.js';

let server: TokenServer;
let failReads = false;

/** The test storage, whose reads fail while `failReads` is set: a storage outage as the server sees it. */
function flakyStorage(): Storage {
  const inner = testStorage();
  return new Proxy(inner, {
    get(target, name, receiver) {
      const member = Reflect.get(target, name, receiver) as unknown;
      if (name !== 'get' || typeof member !== 'function') return member;
      return async (key: string) => {
        if (failReads) throw new Error('storage read failed (test)');
        return (member as Storage['get']).call(target, key);
      };
    },
  });
}

beforeAll(async () => {
  server = await startTokenServer({ storage: flakyStorage() });
}, 60_000);
afterAll(() => server?.stop());

/** Scrapes as `token` (null: with none); the parser throws on any line that is not the text format. */
const scrape = async (token: string | null = server.root, base = server.started.url) => {
  const answer = await request(base, { path: '/v1/sys/metrics?format=prometheus', token: token ?? undefined });
  return { ...answer, families: answer.status === 200 ? parsePrometheusTextFormat(answer.text) : [] };
};

type Families = ReturnType<typeof parsePrometheusTextFormat>;

/**
 * A histogram's samples by label set, read from the text's sample lines: the npm parser merges a histogram's label sets
 * into one (keeping only the buckets), so the per-family counts, sums and buckets are read here.
 */
function histogram(text: string, name: string, labels: Record<string, string>) {
  const matching = (suffix: string) =>
    [...text.matchAll(new RegExp(`^${name}_${suffix}\\{(.*)\\} (\\S+)$`, 'gm'))]
      .map((match) => ({
        labels: Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1]!, pair[2]!])),
        value: Number(match[2]),
      }))
      .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  const total = (suffix: string) => matching(suffix).reduce((sum, sample) => sum + sample.value, 0);
  const infinite = matching('bucket').filter((sample) => sample.labels.le === '+Inf');
  return { count: total('count'), sum: total('sum'), infinite: infinite.reduce((sum, { value }) => sum + value, 0) };
}
const family = (families: Families, name: string) => families.find((found) => found.name === name);
/** The value of the sample of `name` whose labels include `labels`; 0 when there is none. */
function valueOf(families: Families, name: string, labels: Record<string, string> = {}): number {
  const sample = family(families, name)?.metrics.find((metric) =>
    Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value),
  );
  return Number(sample?.value ?? 0);
}

describe('GET /v1/sys/metrics', () => {
  it('needs sudo: 403 without a token and for a token that may only read the path; 400 without the format', async () => {
    expect((await scrape(null)).status).toBe(403);
    await server.putPolicy('metrics-read', 'path "sys/metrics" { capabilities = ["read"] }');
    const reader = await server.made({ policies: ['metrics-read'] });
    expect((await scrape(reader)).status).toBe(403);
    await server.putPolicy('metrics-sudo', 'path "sys/metrics" { capabilities = ["read", "sudo"] }');
    const scraper = await server.made({ policies: ['metrics-sudo'] });
    const allowed = await scrape(scraper);
    expect(allowed.status).toBe(200);
    expect(allowed.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const json = await request(server.started.url, { path: '/v1/sys/metrics', token: server.root });
    expect(json.status).toBe(400);
    expect(json.json.errors[0]).toContain('format=prometheus');
  });

  it('counts requests by route family and status class, with a latency histogram, and no names in labels', async () => {
    const before = (await scrape()).families;
    const labels = { family: 'secret/data', status_class: '2xx' };
    for (let i = 0; i < 3; i++)
      await request(server.started.url, {
        method: 'POST',
        path: `/v1/secret/data/private-name-${i}`,
        token: server.root,
        body: { data: { a: '1' } },
      });
    await request(server.started.url, { path: '/v1/secret/data/missing', token: server.root });
    const after = await scrape();
    const { families } = after;
    expect(valueOf(families, 'strongroom_http_requests_total', labels)).toBe(
      valueOf(before, 'strongroom_http_requests_total', labels) + 3,
    );
    expect(valueOf(families, 'strongroom_http_requests_total', { family: 'secret/data', status_class: '4xx' })).toBe(
      valueOf(before, 'strongroom_http_requests_total', { family: 'secret/data', status_class: '4xx' }) + 1,
    );
    expect(family(families, 'strongroom_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    const latency = histogram(after.text, 'strongroom_http_request_duration_seconds', labels);
    expect(latency.count).toBe(valueOf(families, 'strongroom_http_requests_total', labels));
    expect(latency.infinite).toBe(latency.count);
    expect(latency.sum).toBeGreaterThan(0);
    expect(after.text).not.toContain('private-name');
    expect(after.text).not.toContain(server.root);
  });

  it('times storage calls and counts the ones that fail', async () => {
    const before = await scrape();
    expect(family(before.families, 'strongroom_storage_operation_duration_seconds')?.type).toBe('HISTOGRAM');
    const calls = (text: string, operation: string) =>
      histogram(text, 'strongroom_storage_operation_duration_seconds', { operation }).count;
    expect(calls(before.text, 'put')).toBeGreaterThan(0);
    expect(calls(before.text, 'get')).toBeGreaterThan(0);
    failReads = true;
    const failed = await request(server.started.url, { path: '/v1/secret/data/private-name-0', token: server.root });
    failReads = false;
    expect(failed.status).toBe(500);
    const { families, text } = await scrape();
    expect(calls(text, 'get')).toBeGreaterThan(calls(before.text, 'get'));
    expect(valueOf(families, 'strongroom_storage_errors_total', { operation: 'get' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(families, 'strongroom_storage_errors_total', { operation: 'put' })).toBe(0);
    expect(valueOf(families, 'strongroom_http_requests_total', { status_class: '5xx' })).toBeGreaterThanOrEqual(1);
  });

  it('counts logins by method and outcome, and live tokens', async () => {
    await server.putRole('metrics-web', { token_policies: ['default'] });
    const before = (await scrape()).families;
    const tokensBefore = valueOf(before, 'strongroom_tokens_live');
    expect((await server.login('metrics-web')).status).toBe(200);
    expect((await server.login('metrics-web')).status).toBe(200);
    expect((await server.login('no-such-role')).status).toBe(400);
    const ec2 = await request(server.started.url, {
      method: 'POST',
      path: '/v1/auth/aws/login',
      body: { role: 'x', pkcs7: 'bm90IGEgcGtjczc=' },
    });
    expect(ec2.status).toBeGreaterThanOrEqual(400);
    const { families } = await scrape();
    const logins = (labels: Record<string, string>) =>
      valueOf(families, 'strongroom_logins_total', labels) - valueOf(before, 'strongroom_logins_total', labels);
    expect(logins({ method: 'iam', outcome: 'success' })).toBe(2);
    expect(logins({ method: 'iam', outcome: 'denied' })).toBe(1);
    expect(logins({ method: 'ec2', outcome: ec2.status < 500 ? 'denied' : 'error' })).toBe(1);
    expect(valueOf(families, 'strongroom_tokens_live')).toBe(tokensBefore + 2);
  });

  it('counts the change-event streams open now', async () => {
    const path = '/v1/sys/events/subscribe/secret?prefix=app/';
    const streams = [
      openStream(server.started.url, path, server.root),
      openStream(server.started.url, path, server.root),
    ];
    await expect.poll(() => streams.every((stream) => stream.status() === 200)).toBe(true);
    expect(valueOf((await scrape()).families, 'strongroom_event_subscribers')).toBe(2);
    streams[0]!.close();
    await expect.poll(async () => valueOf((await scrape()).families, 'strongroom_event_subscribers')).toBe(1);
    streams[1]!.close();
    await expect.poll(async () => valueOf((await scrape()).families, 'strongroom_event_subscribers')).toBe(0);
  });
});

describe('audit write failures and an unauthenticated scrape', () => {
  it('counts audit lines that could not be written (each refused its request)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strongroom-audit-'));
    const link = join(dir, 'audit.log');
    // The audit file is a link to /dev/full, where every write fails with ENOSPC; after a failure the server opens the
    // file again, so pointing the link at a real file lets the next request (the scrape) through.
    symlinkSync('/dev/full', link);
    const started = await startServer({ auditFile: link, metricsUnauthenticated: true });
    try {
      const refused = await request(started.url, { path: '/v1/secret/data/x', token: started.rootToken });
      expect(refused.status).toBe(500);
      rmSync(link);
      writeFileSync(join(dir, 'real.log'), '');
      symlinkSync(join(dir, 'real.log'), link);
      const { status, families } = await scrape(null, started.url);
      expect(status).toBe(200);
      // The refused request's line failed, and so did the line of its answer.
      expect(valueOf(families, 'strongroom_audit_write_failures_total')).toBe(2);
    } finally {
      await started.stop();
    }
  });
});

describe('strongroom server and STRONGROOM_METRICS_UNAUTHENTICATED', () => {
  const running: ServedCommand[] = [];
  afterEach(() => running.splice(0).forEach((served) => served.stop()));

  it('serves metrics without a token only when the operator sets it', async () => {
    const cli = await builtCli();
    const env = { STRONGROOM_ROOT_TOKEN: 'metrics-root' };
    const [open, closed] = await Promise.all([
      serveCommand(cli, { ...env, STRONGROOM_METRICS_UNAUTHENTICATED: 'true' }),
      serveCommand(cli, env),
    ]);
    running.push(open, closed);
    const scraped = await scrape(null, open.url);
    expect(scraped.status).toBe(200);
    expect(family(scraped.families, 'strongroom_http_requests_total')?.type).toBe('COUNTER');
    expect(family(scraped.families, 'process_cpu_user_seconds_total')?.type).toBe('COUNTER');
    expect((await scrape(null, closed.url)).status).toBe(403);
    expect((await scrape('metrics-root', closed.url)).status).toBe(200);
  }, 120_000);
});
