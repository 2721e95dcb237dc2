// Runs in its own process (started with --expose-gc by memory.mjs): stores KEYS keys of one version each and prints
// the heap growth as JSON. ArrayBuffer memory is reported too: MemoryStorage keeps values as Uint8Arrays, whose
// backing stores (above 64 bytes) live outside the V8 heap and so outside heapUsed.
import { KvEngine, MemoryStorage } from 'strongroom';
import { keyPath, payload } from './harness/fixtures.mjs';

const keys = Number(process.argv[2]);
const mode = process.argv[3];

function settle() {
  for (let i = 0; i < 4; i++) globalThis.gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heapUsed, arrayBuffers };
}

// Payloads are made up front so that only what the storage keeps is counted.
const payloads = Array.from({ length: keys }, (_, index) => payload(index));
const encoder = new TextEncoder();
const before = settle();
const storage = new MemoryStorage();
if (mode === 'raw') {
  // The same number of values of the same size put straight into the storage: the floor the engine builds on.
  for (let index = 0; index < keys; index++)
    await storage.put(`kv/${keyPath(index)}`, encoder.encode(JSON.stringify(payloads[index])));
} else {
  const kv = new KvEngine({ storage });
  for (let index = 0; index < keys; index++) {
    const response = await kv.handle({
      method: 'POST',
      path: `data/${keyPath(index)}`,
      body: { data: payloads[index] },
    });
    if (response.status !== 200) throw new Error(`write failed: ${response.status}`);
  }
}
const after = settle();
if (storage.size === 0) throw new Error('nothing stored');
process.stdout.write(
  JSON.stringify({
    keys,
    storedEntries: storage.size,
    heapPerKey: (after.heapUsed - before.heapUsed) / keys,
    arrayBuffersPerKey: (after.arrayBuffers - before.arrayBuffers) / keys,
  }),
);
