// The server's default log sink: JSON lines on standard output, the lines of one turn of the event loop in one write,
// in the order they were logged.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logToStandardOutput } from '../../../src/server/log/log-lines.js';

afterEach(() => vi.restoreAllMocks());

describe('logToStandardOutput', () => {
  it('writes the lines logged in one turn together, in order, once that turn ends', async () => {
    const writes: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
      writes.push(String(text));
      return true;
    });
    for (let n = 0; n < 3; n++) logToStandardOutput({ level: 'info', n });
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['{"level":"info","n":0}\n{"level":"info","n":1}\n{"level":"info","n":2}\n']);
    logToStandardOutput({ level: 'warn', n: 3 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([writes[0], '{"level":"warn","n":3}\n']);
  });
});
