// The server-under-load rows' floor: it must make, call by call, the storage calls the real server makes for the same
// request, taken from a recording of that server, and refuse to start on a recording it cannot mirror.
import { type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/index.js';
import { createServer } from '../../src/server/index.js';
// @ts-expect-error: the bench is plain JavaScript, without declarations.
import { recordingStorage } from '../../bench/recorded-calls.mjs';
// @ts-expect-error: the bench is plain JavaScript, without declarations.
import * as replay from '../../bench/server/floor-replay.mjs';

interface Call {
  member: string;
  args: unknown[];
}
interface Recording {
  path: string;
  calls: Call[];
}
interface Recordings {
  GET: Recording[];
  POST: Recording[];
  blobs: Map<string, string>;
  answers: { GET: unknown; POST: unknown };
}
interface Recorder {
  storage: MemoryStorage;
  record(operation: () => Promise<unknown>): Promise<Call[]>;
}
interface Floor {
  recordServer(url: string, token: string, recorder: Recorder, keys: number): Promise<Recordings>;
  deriveTemplate(recordings: Recording[]): unknown;
  floorTemplates(recordings: Recordings): unknown;
  floorAnswer(storage: unknown, templates: unknown, blobs: Map<string, string>): unknown;
  floorHttpServer(answer: unknown): Server;
  writeBody: { data: Record<string, string> };
}
const floor = replay as Floor;

const TOKEN = 'sr.floor-test-root';
/** A key neither recorded for the templates nor warmed up by them: the comparison is not the derivation's own input. */
const PATH = 'load/3';

/** A JSON answer's members and the types of its values, all the way down: its shape, whatever its values. */
function jsonShape(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value === null ? 'null' : typeof value;
  if (Array.isArray(value)) return value.map(jsonShape);
  return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, jsonShape(member)]));
}

/** A call as the comparison sees it: a blob key by its kind only, since the floor's new blob keys are its own. */
function shape({ member, args }: Call) {
  const key = (name: string) => (/\/versions\/[0-9a-f]{2}\//.test(name) ? 'secret/versions/<blob>' : name);
  if (member !== 'commit') return { member, key: key(args[0] as string) };
  const parts = args[0] as { type: string; key: string; expected?: unknown }[];
  return {
    member,
    parts: parts.map((part) => ({
      type: part.type,
      key: key(part.key),
      expected: part.expected === undefined ? 'none' : part.expected === null ? 'absent' : 'bytes',
    })),
  };
}

/**
 * `recorder`, with a stray call in front of the recordings `strayed` picks (numbered from 1), as the server's
 * background work (the webhook deliverer's timed round, which lists the webhooks) sometimes adds one to a recording.
 */
function withStrayCalls(recorder: Recorder, strayed: (recording: number) => boolean): Recorder {
  let recorded = 0;
  return {
    storage: recorder.storage,
    record: async (operation) => {
      const calls = await recorder.record(operation);
      recorded += 1;
      return strayed(recorded) ? [{ member: 'list', args: ['sys/webhooks/hooks/'] }, ...calls] : calls;
    },
  };
}

let recorder: Recorder;
let recordings: Recordings;
let serverGet: Call[];
let serverPost: Call[];
let floorUrl: string;
let floorServer: Server;

async function send(url: string, method: string, body?: unknown) {
  const answer = await fetch(`${url}/v1/secret/data/${PATH}`, {
    method,
    headers: { 'x-vault-token': TOKEN },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as { data: { data?: unknown } };
}

beforeAll(async () => {
  recorder = recordingStorage(new MemoryStorage()) as Recorder;
  const real = createServer({ storage: recorder.storage, rootToken: TOKEN, log: () => {} });
  const url = await real.listen({ port: 0, host: '127.0.0.1' });
  try {
    // The compared key in the steady state of the bench's writes: each prunes a version as it adds one.
    for (let round = 0; round < 12; round++) await send(url, 'POST', floor.writeBody);
    // A stray call in the first read recorded for the templates: the two reads disagree, and both are made again
    // (recordings 3 and 4; the writes are 5 and 6). Then one in each key's read, among which the floor must still
    // find the blob the read got.
    const strayed = (recording: number) => recording === 1 || recording > 6;
    recordings = await floor.recordServer(url, TOKEN, withStrayCalls(recorder, strayed), 4);
    serverGet = await recorder.record(() => send(url, 'GET'));
    serverPost = await recorder.record(() => send(url, 'POST', floor.writeBody));
  } finally {
    await real.close({ graceMs: 1000 });
  }
  const templates = floor.floorTemplates(recordings);
  floorServer = floor.floorHttpServer(floor.floorAnswer(recorder.storage, templates, new Map(recordings.blobs)));
  await new Promise<void>((resolve) => floorServer.listen(0, '127.0.0.1', resolve));
  floorUrl = `http://127.0.0.1:${(floorServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  floorServer.closeAllConnections();
  await new Promise((resolve) => floorServer.close(resolve));
});

describe('the floor server', () => {
  it("makes a read's storage calls exactly as the server made them: mount table, token, blob, metadata", async () => {
    let answer: unknown;
    const calls = await recorder.record(async () => {
      answer = await send(floorUrl, 'GET');
    });
    // The same JSON as the server's answer, member for member (the key's own data aside), not a shorter one.
    const dataless = (read: unknown) => {
      const { data, ...rest } = read as { data: Record<string, unknown> };
      return jsonShape({ ...rest, data: { ...data, data: {} } });
    };
    expect(dataless(answer)).toEqual(dataless(recordings.answers.GET));
    expect(serverGet.map((call) => call.member)).toEqual(['get', 'get', 'get', 'get']);
    // Key by key, the blob's too: the floor reads the very version the server read.
    expect(calls).toEqual(serverGet);
  });

  it("makes a write's storage calls as the server made them, and one commit that adds and prunes a blob", async () => {
    // The floor's first write of the key has no blob of its own to prune yet; its second is in the steady state.
    expect(jsonShape(await send(floorUrl, 'POST', floor.writeBody))).toEqual(jsonShape(recordings.answers.POST));
    const calls = await recorder.record(() => send(floorUrl, 'POST', floor.writeBody));
    expect(calls.map(shape)).toEqual(serverPost.map(shape));
    expect(serverPost.map(shape).at(-1)).toEqual({
      member: 'commit',
      parts: [
        { type: 'put', key: 'secret/versions/<blob>', expected: 'absent' },
        { type: 'put', key: `secret/metadata/${PATH}`, expected: 'bytes' },
        { type: 'delete', key: 'secret/versions/<blob>', expected: 'none' },
      ],
    });
    // And it then reads what it wrote.
    expect((await send(floorUrl, 'GET')).data.data).toEqual(floor.writeBody.data);
  });

  it('refuses to start on a call the server makes in every recording it cannot mirror, after three tries', async () => {
    const strayed = recordingStorage(new MemoryStorage()) as Recorder;
    const real = createServer({ storage: strayed.storage, rootToken: TOKEN, log: () => {} });
    const url = await real.listen({ port: 0, host: '127.0.0.1' });
    let recorded = 0;
    const everyRecording = withStrayCalls(strayed, (recording) => ((recorded = recording), true));
    try {
      await expect(floor.recordServer(url, TOKEN, everyRecording, 2)).rejects.toThrow(/call 1 \(a list/);
      expect(recorded).toBe(6);
    } finally {
      await real.close({ graceMs: 1000 });
    }
  });

  it('refuses at derivation a recording it cannot mirror, rather than doing less than the server', () => {
    const both = (change: (calls: Call[]) => Call[]) =>
      recordings.GET.map((recording) => ({ ...recording, calls: change(structuredClone(recording.calls)) }));
    expect(() => floor.deriveTemplate(recordings.GET)).not.toThrow();
    const listing = both((calls) => [...calls, { member: 'list', args: ['secret/metadata/'] }]);
    expect(() => floor.deriveTemplate(listing)).toThrow(/cannot mirror the server's call 5 \(a list/);
    const [first, second] = recordings.GET as [Recording, Recording];
    const tokens = [
      { ...first, calls: [{ member: 'get', args: ['sys/token/id/a'] }, ...first.calls] },
      { ...second, calls: [{ member: 'get', args: ['sys/token/id/b'] }, ...second.calls] },
    ];
    expect(() => floor.deriveTemplate(tokens)).toThrow(/neither a metadata nor a blob key/);
    const shorter = [first, { ...second, calls: second.calls.slice(1) }];
    expect(() => floor.deriveTemplate(shorter)).toThrow(/made 4 storage calls once and 3 once/);
    const constantPut = both((calls) => [
      ...calls,
      { member: 'commit', args: [[{ type: 'put', key: 'sys/counter', value: new Uint8Array() }]] },
    ]);
    expect(() => floor.deriveTemplate(constantPut)).toThrow(/a commit's put of a constant key/);
  });
});
