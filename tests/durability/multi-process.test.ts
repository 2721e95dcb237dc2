import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineResponse } from '../../src/core/framework/request.js';
import { SYNTHETIC, syntheticPkcs7, testSigner } from '../auth/login/login-harness.js';
import { BACKENDS, useWorkerScript, workers, type Worker } from './cluster.js';

const PROCESSES = 4;
const ROUNDS = 10;
const WRITERS_PER_ROUND = 100;

const script = useWorkerScript();

const body = (response: EngineResponse) => response.body as { data: Record<string, any>; errors?: string[] };

for (const [label, open, available] of BACKENDS) {
  describe.skipIf(!available)(`four processes over one ${label} database`, { timeout: 240_000 }, () => {
    let backend: Awaited<ReturnType<typeof open>>;
    let processes: Worker[];
    beforeAll(async () => {
      backend = await open();
      processes = await workers(script(), PROCESSES, backend.env());
      const { trusted } = await testSigner();
      expect(
        (
          await processes[0]!.auth({
            method: 'POST',
            path: 'config/certificate/test-ca',
            body: { aws_public_cert: trusted.pem, type: 'pkcs7' },
          })
        ).status,
      ).toBe(204);
    }, 60_000);
    afterAll(async () => {
      await Promise.all((processes ?? []).map((process) => process.stop()));
      await backend?.stop();
    });

    it('1,000 check-and-set writers on one key: exactly one winner per version', async () => {
      await processes[0]!.kv({ method: 'POST', path: 'metadata/race', body: { max_versions: 100 } });
      const winners: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const responses = await Promise.all(
          Array.from({ length: WRITERS_PER_ROUND }, (_, writer) =>
            processes[writer % PROCESSES]!.kv({
              method: 'POST',
              path: 'data/race',
              body: { data: { round, writer }, options: { cas: round } },
            }),
          ),
        );
        const won = responses.flatMap((response, writer) => (response.status === 200 ? [writer] : []));
        expect(won.length, `winners of version ${round + 1}`).toBe(1);
        expect(body(responses[won[0]!]!).data.version).toBe(round + 1);
        for (const response of responses.filter((response) => response.status !== 200)) {
          expect(response.status).toBe(400);
          expect(body(response).errors![0]).toMatch(/check-and-set/);
        }
        winners.push(won[0]!);
      }
      for (let version = 1; version <= ROUNDS; version++) {
        const read = await processes[version % PROCESSES]!.kv({
          method: 'GET',
          path: 'data/race',
          query: { version: String(version) },
        });
        expect(body(read).data.data).toEqual({ round: version - 1, writer: winners[version - 1] });
      }
    });

    it('a metadata delete racing a write loses no acknowledged write', async () => {
      for (let round = 0; round < 30; round++) {
        expect(
          (await processes[3]!.kv({ method: 'POST', path: 'data/contended', body: { data: { seed: round } } })).status,
        ).toBe(200);
        const [write, removal] = await Promise.all([
          processes[round % 2]!.kv({ method: 'POST', path: 'data/contended', body: { data: { round } } }),
          processes[1 - (round % 2)]!.kv({ method: 'DELETE', path: 'metadata/contended' }),
        ]);
        expect(write.status).toBe(200);
        expect(removal.status).toBe(204);
        const version = body(write).data.version as number;
        const metadata = await processes[2]!.kv({ method: 'GET', path: 'metadata/contended' });
        // Either the delete came last (nothing remains) or the write did (it is the current version, readable).
        if (metadata.status === 404) continue;
        expect(metadata.status, `round ${round}`).toBe(200);
        expect(body(metadata).data.current_version, `round ${round}: the acknowledged write's version`).toBe(version);
        const read = await processes[2]!.kv({ method: 'GET', path: 'data/contended' });
        expect(read.status, `round ${round}: the acknowledged write is readable`).toBe(200);
        expect(body(read).data.data).toEqual({ round });
      }
    });

    it('an ec2 identity document replayed at all four processes at once is accepted at most once', async () => {
      expect(
        (
          await processes[0]!.auth({
            method: 'POST',
            path: 'role/web',
            body: { auth_type: 'ec2', bound_ami_id: SYNTHETIC.imageId },
          })
        ).status,
      ).toBe(204);
      let accepted = 0;
      for (let index = 0; index < 8; index++) {
        const instanceId = `i-0123456789abcd${index.toString(16).padStart(2, '0')}`;
        await Promise.all(
          processes.map((process) => process.do({ type: 'instance', instance: { ...SYNTHETIC, instanceId } })),
        );
        const pkcs7 = await syntheticPkcs7({ instanceId });
        const responses = await Promise.all(
          processes.map((process) => process.auth({ method: 'POST', path: 'login', body: { role: 'web', pkcs7 } })),
        );
        const ok = responses.filter((response) => response.status === 200).length;
        expect(ok, `${instanceId}: logins accepted`).toBeLessThanOrEqual(1);
        accepted += ok;
        for (const response of responses.filter((response) => response.status !== 200))
          expect(response.status).toBe(403);
      }
      expect(accepted).toBeGreaterThan(0);
    });

    // Tidy reads an expired entry while a login renews it: its delete must be conditional on what it read.
    it('tidy in one process while the others log in loses no access-list entry', async () => {
      const start = Date.parse('2026-01-01T00:10:00Z');
      const at = (seconds: number) =>
        Promise.all(
          processes.map((process) =>
            process.do({ type: 'clock', time: new Date(start + seconds * 1000).toISOString() }),
          ),
        );
      await at(0);
      expect(
        (
          await processes[0]!.auth({
            method: 'POST',
            path: 'role/short',
            body: { auth_type: 'ec2', bound_ami_id: SYNTHETIC.imageId, max_ttl: 60 },
          })
        ).status,
      ).toBe(204);
      const instances = Array.from(
        { length: 24 },
        (_, index) => `i-0fedcba98765${index.toString(16).padStart(4, '0')}`,
      );
      // Logged in once and never again: tidy must remove these, which shows it ran during the re-logins.
      const abandoned = Array.from({ length: 6 }, (_, index) => `i-0abcabcabc${index.toString(16).padStart(4, '0')}`);
      const documents = new Map<string, string>();
      const nonces = new Map<string, string>();
      for (const instanceId of [...instances, ...abandoned]) {
        await Promise.all(
          processes.map((process) => process.do({ type: 'instance', instance: { ...SYNTHETIC, instanceId } })),
        );
        documents.set(instanceId, await syntheticPkcs7({ instanceId }));
        const login = await processes[1 + (nonces.size % 3)]!.auth({
          method: 'POST',
          path: 'login',
          body: { role: 'short', pkcs7: documents.get(instanceId) },
        });
        expect(login.status).toBe(200);
        nonces.set(
          instanceId,
          (login.body as unknown as { auth: { metadata: { nonce: string } } }).auth.metadata.nonce,
        );
      }
      // Every entry has expired (an entry lives as long as the longest of the role's and the mount's maximum TTL);
      // tidy (safety buffer 1 s) races re-logins that renew them.
      const later = 40 * 86_400;
      await at(later);
      const relogins = instances.map((instanceId, index) =>
        processes[1 + (index % 3)]!.auth({
          method: 'POST',
          path: 'login',
          body: { role: 'short', pkcs7: documents.get(instanceId), nonce: nonces.get(instanceId) },
        }),
      );
      const tidy = (async () => {
        for (let pass = 0; pass < 5; pass++) {
          await processes[0]!.auth({ method: 'POST', path: 'tidy/identity-accesslist', body: { safety_buffer: 1 } });
          await processes[0]!.do({ type: 'idle' });
        }
      })();
      const [results] = await Promise.all([Promise.all(relogins), tidy]);
      const renewed = instances.filter((_, index) => results[index]!.status === 200);
      expect(renewed.length).toBeGreaterThan(0);
      for (const instanceId of renewed) {
        const entry = await processes[2]!.auth({ method: 'GET', path: `identity-accesslist/${instanceId}` });
        expect(entry.status, `${instanceId}: renewed entry kept`).toBe(200);
        expect(Date.parse(body(entry).data.expiration_time)).toBeGreaterThan(start + later * 1000);
      }
      for (const instanceId of abandoned) {
        expect(
          (await processes[2]!.auth({ method: 'GET', path: `identity-accesslist/${instanceId}` })).status,
          `${instanceId} tidied`,
        ).toBe(404);
      }
    });
  });
}
