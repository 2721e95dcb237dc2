// The outside limit of one engine operation: the storage calls the engine made for it, recorded, then replayed against
// a MemoryStorage holding the same bytes, JSON-decoding each get's bytes and JSON-encoding each put's. Nothing of the
// engine runs in the replay, so the ratio of the two is what the engine adds around the storage work it asked for.
import { MemoryStorage } from 'strongroom';

/** Every member of the Storage port that acts on stored data. */
const MEMBERS = ['get', 'put', 'delete', 'list', 'listPage', 'commit', 'compareAndPut', 'compareAndDelete'];

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const encode = (value) => encoder.encode(JSON.stringify(value));
const decode = (bytes) => JSON.parse(decoder.decode(bytes));

/**
 * A Storage forwarding each member `inner` has to it, noting every call while `record` runs. It forwards rather than
 * proxies: a call the inner storage makes on itself (MemoryStorage's `commit` removes through its own `delete`) is the
 * storage's business, not a call of the engine's, and is not noted.
 */
export function recordingStorage(inner) {
  let calls;
  const storage = { answersCopies: inner.answersCopies };
  for (const member of MEMBERS.filter((name) => typeof inner[name] === 'function')) {
    storage[member] = (...args) => {
      calls?.push({ member, args: structuredClone(args) });
      return inner[member](...args);
    };
  }
  return {
    storage,
    /** The calls `operation` makes, in order; `operation` runs once. */
    async record(operation) {
      calls = [];
      try {
        await operation();
        return calls;
      } finally {
        calls = undefined;
      }
    },
  };
}

async function copyOf(storage) {
  const entries = [];
  for await (const entry of storage.snapshot()) entries.push(entry);
  const copy = new MemoryStorage();
  await copy.loadIntoEmpty(entries);
  return copy;
}

/** Keys of `before` and `after` (MemoryStorages) that the operation created and removed, paired in order. */
async function churn(before, after, calls) {
  const written = new Set();
  for (const { member, args } of calls) {
    if (member === 'commit') for (const operation of args[0]) written.add(operation.key);
    else if (member !== 'get' && member !== 'list' && member !== 'listPage') written.add(args[0]);
  }
  const created = [];
  const removed = [];
  for (const key of written) {
    const [was, is] = [await before.get(key), await after.get(key)];
    if (was === undefined && is !== undefined) created.push(key);
    if (was !== undefined && is === undefined) removed.push(key);
  }
  if (created.length !== removed.length)
    throw new Error(`not a steady state: ${created.length} keys created, ${removed.length} removed`);
  return new Map(
    created.flatMap((key, index) => [
      [key, removed[index]],
      [removed[index], key],
    ]),
  );
}

/**
 * Records one run of `operation` (which acts through `recorder.storage`, over the MemoryStorage `inner`) and answers
 * its replay: an async function doing the same calls against a copy of what `inner` held before the run. Each put's
 * value is decoded once here and encoded again on every replay; each get's answer is decoded. A condition on bytes
 * (`expected`) names what the replay last read or wrote at that key, as the engine's names what it read. A write
 * creates and removes keys (a new version's blob, the pruned one's): every other replay swaps the two names, so the
 * replay's storage stays in the steady state the engine's was in, and every commit's conditions hold.
 */
export async function recordedReplay(recorder, inner, operation) {
  const before = await copyOf(inner);
  const calls = await recorder.record(operation);
  const swap = await churn(before, inner, calls);
  const raw = before;
  const seen = new Map();
  let swapped = false;
  const name = (key) => (swapped ? (swap.get(key) ?? key) : key);
  const condition = (at, expected) => (expected instanceof Uint8Array ? (seen.get(at) ?? expected) : expected);
  const fresh = (at, document) => {
    const bytes = encode(document);
    seen.set(at, bytes);
    return bytes;
  };
  const steps = calls.map(({ member, args: [key, second, third] }) => {
    switch (member) {
      case 'get':
        return async () => {
          const at = name(key);
          const bytes = await raw.get(at);
          seen.set(at, bytes);
          if (bytes !== undefined) decode(bytes);
        };
      case 'put': {
        const document = decode(second);
        return () => raw.put(name(key), fresh(name(key), document));
      }
      case 'compareAndPut': {
        const document = decode(third);
        return async () => {
          const at = name(key);
          const expected = condition(at, second);
          must(await raw.compareAndPut(at, expected, fresh(at, document)), member);
        };
      }
      case 'delete':
        return () => raw.delete(name(key));
      case 'compareAndDelete':
        return async () => must(await raw.compareAndDelete(name(key), condition(name(key), second)), member);
      case 'list':
        return () => raw.list(key);
      case 'listPage':
        return () => raw.listPage(key, second);
      case 'commit': {
        const documents = key.map((part) => (part.type === 'put' ? decode(part.value) : undefined));
        return async () => {
          const operations = key.map(({ type, key: recorded, expected }, index) => {
            const at = name(recorded);
            const part = { type, key: at };
            if (expected !== undefined) part.expected = condition(at, expected);
            if (type === 'put') part.value = fresh(at, documents[index]);
            return part;
          });
          must(await raw.commit(operations), member);
        };
      }
      default:
        throw new Error(`unknown storage member ${member}`);
    }
  });
  return async () => {
    for (const step of steps) await step();
    swapped = swap.size > 0 && !swapped;
  };
}

function must(done, member) {
  if (!done) throw new Error(`the replayed ${member} was refused: the replay left the engine's steady state`);
}
