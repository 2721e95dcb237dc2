// The KV rows' outside limit: the storage calls one operation of the engine makes, recorded and replayed. The recording
// must see the engine's calls and only those, and the replay of a write must stay in the engine's steady state.
import { describe, expect, it } from 'vitest';
import { KvEngine, MemoryStorage } from '../../src/index.js';
// @ts-expect-error: the bench is plain JavaScript, without declarations.
import { recordedReplay, recordingStorage } from '../../bench/recorded-calls.mjs';

interface Call {
  member: string;
  args: unknown[];
}

async function keyInSteadyState() {
  const inner = new MemoryStorage();
  const recorder = recordingStorage(inner);
  const kv = new KvEngine({ storage: recorder.storage });
  await kv.handle({ method: 'POST', path: 'metadata/app/db', body: { max_versions: 1 } });
  const write = async () => {
    const response = await kv.handle({ method: 'POST', path: 'data/app/db', body: { data: { password: 'p' } } });
    expect(response.status).toBe(200);
  };
  for (let index = 0; index < 20; index++) await write();
  return { inner, recorder, kv, write };
}

describe('recorded storage calls', () => {
  it('sees a write as the engine makes it: two gets and one commit, not the deletes the commit makes inside', async () => {
    const { recorder, write } = await keyInSteadyState();
    const calls: Call[] = await recorder.record(write);
    expect(calls.map((call) => [call.member, call.args[0]]).slice(0, 2)).toEqual([
      ['get', 'kv/config'],
      ['get', 'kv/metadata/app/db'],
    ]);
    expect(calls.map((call) => call.member)).toEqual(['get', 'get', 'commit']);
    const operations = calls[2]!.args[0] as { type: string; key: string }[];
    expect(operations.map((operation) => operation.type)).toEqual(['put', 'put', 'delete']);
  });

  it('replays a write again and again, one version added and one pruned each time, every condition holding', async () => {
    const { inner, recorder, write } = await keyInSteadyState();
    const keysBefore = inner.size;
    const replay = await recordedReplay(recorder, inner, write);
    // The engine's storage moved on by the recorded write alone; the replay works on a copy of it from before.
    expect(inner.size).toBe(keysBefore);
    for (let index = 0; index < 5; index++) await expect(replay()).resolves.toBeUndefined();
  });

  it('replays a read with the same gets, each answer decoded', async () => {
    const { inner, recorder, kv } = await keyInSteadyState();
    const replay = await recordedReplay(recorder, inner, () => kv.handle({ method: 'GET', path: 'data/app/db' }));
    await expect(replay()).resolves.toBeUndefined();
    // A key the engine read that holds no JSON would fail the replay's decode, as it fails the engine's.
    await inner.put('kv/metadata/app/db', new TextEncoder().encode('not json'));
    const broken = await recordedReplay(recorder, inner, () => kv.handle({ method: 'GET', path: 'data/app/db' }));
    await expect(broken()).rejects.toThrow(SyntaxError);
  });
});
