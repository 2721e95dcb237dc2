import { describe, expect, it } from 'vitest';
import { AuthMethod, KvEngine, MemoryStorage, type AuthGrant } from '../../src/index.js';

/** A storage whose reads fail: every request that reads answers 500 and reports to onInternalError. */
class FailingReads extends MemoryStorage {
  override async get(): Promise<Uint8Array | undefined> {
    throw new Error('disk on fire');
  }
}

const grant = {
  internal_data: {
    auth_type: 'ec2',
    instance_id: 'i-1',
    region: 'us-east-1',
    account_id: '111122223333',
    role_name: 'web',
    role_id: 'r',
    role_tag_max_ttl: 0,
    access_list_created: '2026-01-01T00:00:00Z',
  },
} as unknown as AuthGrant;

/**
 * The hook is the service's logger: one that throws, or an async one that rejects, must not turn the 500 into a
 * rejected handle() (which the caller's framework may not catch) or into an unhandled rejection, which ends the process.
 */
describe('an onInternalError hook that fails', () => {
  const hooks = {
    throwing: () => {
      throw new Error('logger bug');
    },
    rejecting: async () => {
      throw new Error('async logger bug');
    },
  };

  it.each(Object.entries(hooks))(
    'when %s, still leaves every engine answering 500 and the process running',
    async (_name, onInternalError) => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      try {
        const kv = new KvEngine({ storage: new FailingReads(), onInternalError });
        const auth = new AuthMethod({ storage: new FailingReads(), env: {}, onInternalError });
        expect(await kv.handle({ method: 'GET', path: 'data/app/db' })).toEqual({
          status: 500,
          body: { errors: ['storage read failed'] },
        });
        expect((await auth.handle({ method: 'GET', path: 'role/web' })).status).toBe(500);
        expect((await auth.renew(grant)).status).toBe(500);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
    },
  );
});
