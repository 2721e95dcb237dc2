// The target policy on its own: which addresses count as internal, how the allow list's hosts and CIDRs lift the
// refusal, and that a bad allow-list entry is refused when the server is made.
import { describe, expect, it } from 'vitest';
import { createServer } from '../../../src/server/index.js';
import { TargetPolicy } from '../../../src/server/webhooks/target-policy.js';
import { backoff, deliverySettings } from '../../../src/server/webhooks/delivery-options.js';
import { signatureOf } from '../../../src/server/webhooks/signature.js';
import { verify } from './receiver.js';

const url = new URL('https://hooks.example.com/x');

describe('TargetPolicy', () => {
  it('refuses internal addresses and permits public ones', () => {
    const policy = new TargetPolicy([]);
    const internal = [
      '0.0.0.0',
      '0.1.2.3',
      '10.0.0.1',
      '100.64.0.1',
      '100.127.255.254',
      '127.0.0.1',
      '127.8.8.8',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fc00::1',
      'fd12::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:8.8.8.8',
      'ff02::1',
    ];
    for (const address of internal) expect(policy.permits(url, address), address).toBe(false);
    for (const address of ['8.8.8.8', '1.1.1.1', '100.63.255.255', '100.128.0.1', '172.32.0.1', '2606:4700::1111'])
      expect(policy.permits(url, address), address).toBe(true);
  });

  it('permits what the allow list names, by host name, address or CIDR, and nothing more', () => {
    const policy = new TargetPolicy([' hooks.internal ', '10.1.0.0/16', '::1', '']);
    expect(policy.permits(new URL('http://HOOKS.internal/'), '10.9.9.9')).toBe(true);
    expect(policy.permits(url, '10.1.200.3')).toBe(true);
    expect(policy.permits(url, '10.2.0.1')).toBe(false);
    expect(policy.permits(url, '::1')).toBe(true);
    expect(policy.permits(url, '127.0.0.1')).toBe(false);
    expect(policy.literalRefused(new URL('http://[::1]:8080/'))).toBe(false);
    expect(policy.literalRefused(new URL('http://127.0.0.1/'))).toBe(true);
  });

  it('refuses a bad allow-list entry or delivery option when the server is made', () => {
    for (const entry of ['not a host!', '10.0.0.0/33', '10.0.0.0/8/1', 'http://x/'])
      expect(() => createServer({ webhookAllow: [entry] }), entry).toThrow(/webhookAllow/);
    expect(() => createServer({ webhookDelivery: { attempts: 0 } })).toThrow(/webhookDelivery.attempts/);
    expect(() => createServer({ webhookDelivery: { pollMs: 5000, leaseMs: 5000 } })).toThrow(/leaseMs/);
  });
});

describe('backoff and signature', () => {
  it('doubles the wait after each failed attempt, up to the cap', () => {
    const settings = deliverySettings({ backoffMs: 1000, maxBackoffMs: 10_000 });
    expect([1, 2, 3, 4, 5, 60].map((attempt) => backoff(settings, attempt))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });

  it('signs "<timestamp>.<body>" as a receiver verifies it, and not another time or body', () => {
    const header = signatureOf('s3cret', 1_700_000_000, '{"a":1}');
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verify('s3cret', '1700000000', '{"a":1}', header)).toBe(true);
    expect(verify('s3cret', '1700000001', '{"a":1}', header)).toBe(false);
    expect(verify('s3cret', '1700000000', '{"a":2}', header)).toBe(false);
    expect(verify('other', '1700000000', '{"a":1}', header)).toBe(false);
  });
});
