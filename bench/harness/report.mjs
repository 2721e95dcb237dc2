// The results table (console) and bench/results.json, with the machine the figures were measured on.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

/**
 * Goal kinds. Every ratio is the median of per-round ratios of interleaved runs.
 * - ratio-min:    subject throughput / limit throughput must be at least `value` (e.g. 0.5 = 50% of raw);
 * - slowdown-max: limit throughput / subject throughput (how much slower the big case is) at most `value`;
 * - speedup-min:  subject throughput / limit throughput at least `value` (e.g. 50× faster than pkijs);
 * - min:          the measured median at least `value` (absolute);
 * - check:        a correctness check, `passed` set by the benchmark;
 * - info:         measured for the record, no goal.
 */
function ratioOf(row) {
  const ratio = row.result?.ratio;
  if (!ratio) return undefined;
  if (row.goal.kind === 'slowdown-max') return { median: 1 / ratio.median, min: 1 / ratio.max, max: 1 / ratio.min };
  return ratio;
}

function verdict(row) {
  const { kind, value } = row.goal;
  const ratio = ratioOf(row);
  if (kind === 'ratio-min' || kind === 'speedup-min') return ratio.median >= value;
  if (kind === 'slowdown-max') return ratio.median <= value;
  if (kind === 'min') return row.result.subject.median >= value;
  if (kind === 'check') return row.passed;
  return undefined;
}

function goalText({ kind, value, text }) {
  if (text) return text;
  if (kind === 'ratio-min') return `≥ ${Math.round(value * 100)}%`;
  if (kind === 'slowdown-max') return `≤ ${value}× slower`;
  if (kind === 'speedup-min') return `≥ ${value}× faster`;
  if (kind === 'min') return `≥ ${value.toLocaleString('en-US')}`;
  if (kind === 'check') return 'exact';
  return '—';
}

function number(value) {
  if (value === undefined) return '—';
  if (value >= 100) return Math.round(value).toLocaleString('en-US');
  if (value >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function ratioText(row) {
  const ratio = ratioOf(row);
  if (!ratio) return '—';
  const percent = row.goal.kind === 'ratio-min' || (row.goal.kind === 'info' && row.ratioFormat !== 'times');
  const format = (value) => (percent ? `${(value * 100).toFixed(0)}%` : `${value.toFixed(2)}×`);
  return `${format(ratio.median)} (${format(ratio.min)}–${format(ratio.max)})`;
}

export function finish(rows) {
  return rows.map((row) => {
    const passed = verdict(row);
    return {
      ...row,
      status: passed === undefined ? 'info' : passed ? 'PASS' : 'MISS',
      cells: {
        name: row.name,
        measured: row.measuredText ?? `${number(row.result?.subject.median)} ${row.unit}`,
        limit:
          row.limitText ??
          (row.result?.limit ? `${number(row.result.limit.median)} ${row.unit} (${row.limitName})` : '—'),
        ratio: ratioText(row),
        goal: goalText(row.goal),
      },
    };
  });
}

export function printTable(finished, out = console.log) {
  const headers = ['name', 'measured', 'limit', 'ratio (median, min–max)', 'goal', 'result'];
  const lines = finished.map((row) => [
    row.cells.name,
    row.cells.measured,
    row.cells.limit,
    row.cells.ratio,
    row.cells.goal,
    row.status,
  ]);
  const widths = headers.map((header, column) => Math.max(header.length, ...lines.map((line) => line[column].length)));
  const format = (cells) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  out(format(headers));
  out(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const line of lines) out(format(line));
  const missed = finished.filter((row) => row.status === 'MISS');
  out(
    missed.length === 0
      ? '\nAll goals met.'
      : `\nMISSED ${missed.length} goal(s): ${missed.map((row) => row.name).join('; ')}`,
  );
}

export function machine() {
  const cores = cpus();
  return {
    cpu: cores[0]?.model ?? 'unknown',
    cores: cores.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverageAtStart: loadavg().map((load) => Math.round(load * 100) / 100),
    date: new Date().toISOString(),
  };
}

export function writeResults(path, { machine: host, settings, finished, seconds }) {
  const results = finished.map(({ cells, ...row }) => ({
    ...row,
    goalText: cells.goal,
    ratioText: cells.ratio,
    measuredText: cells.measured,
  }));
  writeFileSync(path, `${JSON.stringify({ machine: host, settings, seconds, results }, null, 2)}\n`);
}
