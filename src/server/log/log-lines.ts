// The server's default log sink: its JSON lines on standard output, written together once per turn of the event loop.
// Under load many requests end in one turn; a write each (standard output to a pipe is a blocking system call on
// Linux) cost the server more than its KV read itself, and one write per turn carries the same lines in the same order.

let pending: string[] = [];
let listening = false;

function flush(): void {
  if (pending.length === 0) return;
  const text = pending.join('');
  pending = [];
  process.stdout.write(text);
}

/**
 * Writes `entry` as one JSON line on standard output, within this turn of the event loop. One buffer for the whole
 * process, as there is one standard output: the lines of several servers keep their order.
 */
export function logToStandardOutput(entry: Record<string, unknown>): void {
  if (!listening) {
    // What still waits when the process ends on its own (an exit, a signal the command handles) goes out then:
    // standard output to a pipe or a file is written synchronously, even in an 'exit' listener.
    process.once('exit', flush);
    listening = true;
  }
  if (pending.length === 0) setImmediate(flush);
  pending.push(`${JSON.stringify(entry)}\n`);
}
