import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import { AuthEngine } from '../../src/auth/auth-engine.js';
import { FaultyStorage } from '../support/faulty-storage.js';
import { FakeCloud } from '../support/fake-cloud.js';
import { testStorage } from '../support/test-storage.js';
import { adminHarness, EC2_ROLE, errorOf } from './admin-harness.js';

describe('AuthEngine', () => {
  it('stores everything under the storage prefix (default auth/)', async () => {
    const storage = testStorage();
    const h = adminHarness({ storage });
    await h.write('role/web', EC2_ROLE);
    expect(await storage.list('')).toEqual(['auth/']);
    const custom = testStorage();
    const other = adminHarness({ storage: custom, storagePrefix: 'mounts/cloud/' });
    await other.write('role/web', EC2_ROLE);
    await other.write('config/client', { endpoint: '' });
    expect(await custom.list('mounts/cloud/')).toEqual(['config/', 'role/']);
    expect(await custom.list('mounts/cloud/role/')).toEqual(['web']);
  });

  it('refuses unusable options', () => {
    const cloud = new FakeCloud();
    const storage = testStorage();
    expect(() => new AuthEngine({ storage, cloud, mountMaxTtl: 0 })).toThrow(TypeError);
    expect(() => new AuthEngine({ storage, cloud, mountMaxTtl: 1.5 })).toThrow(TypeError);
    expect(() => new AuthEngine({ storage, cloud, storagePrefix: 'auth' })).toThrow(TypeError);
    expect(() => new AuthEngine({ storage, cloud: undefined as never })).toThrow(TypeError);
    expect(() => new AuthEngine({ storage, cloud, storagePrefix: '' })).not.toThrow();
  });

  it('answers 404 for unknown paths, 405 for unsupported methods, 400 for traversal', async () => {
    const h = adminHarness();
    expect((await h.read('nope')).status).toBe(404);
    expect((await h.call('PATCH', 'role/web', {})).status).toBe(405);
    expect((await h.read('config/rotate-root')).status).toBe(405);
    expect((await h.remove('config/identity')).status).toBe(405);
    expect((await h.read('role/../config/client')).status).toBe(400);
    expect((await h.read('login')).status).toBe(405);
  });

  it('reports storage faults through onInternalError and answers 500 with a fixed message', async () => {
    const storage = new FaultyStorage(new MemoryStorage());
    const h = adminHarness({ storage });
    storage.arm(1);
    const response = await h.read('role/web');
    expect(response.status).toBe(500);
    expect(errorOf(response)).toBe('storage read failed');
    expect(h.internalErrors).toHaveLength(1);
  });

  it('idle() resolves at once when nothing runs', async () => {
    const h = adminHarness();
    await expect(h.engine.idle()).resolves.toBeUndefined();
  });
});
