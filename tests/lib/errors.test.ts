import { describe, expect, it } from 'vitest';
import {
  AuthenticationRefused,
  CloudUnavailable,
  InternalError,
  InvalidRequest,
  NotFound,
} from '../../src/lib/errors.js';

describe('errors', () => {
  it('refusals (4xx) carry no stack frames, faults (5xx) do; Error.stackTraceLimit is left as it was', () => {
    const limit = Error.stackTraceLimit;
    for (const refusal of [new InvalidRequest('bad'), new AuthenticationRefused('no'), new NotFound()]) {
      expect(refusal.stack).not.toMatch(/\n\s+at /);
      expect(refusal).toBeInstanceOf(Error);
    }
    expect(new InvalidRequest('bad').message).toBe('bad');
    expect(new InvalidRequest('bad').name).toBe('InvalidRequest');
    for (const fault of [new InternalError('bug'), new CloudUnavailable('down')])
      expect(fault.stack).toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('plain').stack).toMatch(/\n\s+at /);
  });
});
