// The bench's history and its chart: a whole run becomes one entry with each goal's ratio (info rows left out), and
// the chart draws one panel per goal with a point per run that measured it, its goal as a dashed line.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the bench is plain JavaScript, without declarations.
import { chartSvg, seriesOf } from '../../bench/harness/chart.mjs';
// @ts-expect-error: the bench is plain JavaScript, without declarations.
import { appendHistory, historyEntry, readHistory } from '../../bench/harness/history.mjs';

const row = (name: string, kind: string, value: number, ratio: number, status = 'PASS') => ({
  name,
  goal: { kind, value },
  result: { ratio: { median: ratio, min: ratio, max: ratio, samples: 5 } },
  status,
});

const run = (date: string, ratios: { read: number; write?: number; slow: number }) => ({
  machine: { date, cpu: 'test cpu', cores: 2, node: 'v20', loadAverageAtStart: [0.1, 0.2, 0.3] },
  settings: { rounds: 5 },
  results: [
    row('read', 'ratio-min', 0.5, ratios.read),
    ...(ratios.write === undefined ? [] : [row('write', 'ratio-min', 0.4, ratios.write, 'MISS')]),
    row('slow', 'slowdown-max', 2, ratios.slow),
    { name: 'for the record', goal: { kind: 'info' }, result: { ratio: { median: 3 } }, status: 'INFO' },
  ],
});

describe('the bench history', () => {
  it('keeps one entry per whole run, with each goal and the machine, oldest first', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'strongroom-bench-')), 'history.jsonl');
    expect(readHistory(path)).toEqual([]);
    appendHistory(path, historyEntry(run('2026-01-01T00:00:00Z', { read: 0.6, slow: 0.5 }), 'aaa1111'));
    appendHistory(path, historyEntry(run('2026-01-02T00:00:00Z', { read: 0.55, write: 0.3, slow: 0.25 }), 'bbb2222'));
    const history = readHistory(path);
    expect(history.map((entry: { commit: string }) => entry.commit)).toEqual(['aaa1111', 'bbb2222']);
    expect(history[0]).toMatchObject({ loadAverageAtStart: [0.1, 0.2, 0.3], machine: { cores: 2 }, rounds: 5 });
    expect(history[1].goals).toEqual([
      { name: 'read', kind: 'ratio-min', value: 0.5, ratio: 0.55, status: 'PASS' },
      { name: 'write', kind: 'ratio-min', value: 0.4, ratio: 0.3, status: 'MISS' },
      { name: 'slow', kind: 'slowdown-max', value: 2, ratio: 0.25, status: 'PASS' },
    ]);
  });

  it('charts a panel per goal, a point per run that measured it, slowdowns as speed-ups', () => {
    const history = [
      historyEntry(run('2026-01-01T00:00:00Z', { read: 0.6, slow: 0.5 }), 'aaa1111'),
      historyEntry(run('2026-01-02T00:00:00Z', { read: 0.55, write: 0.3, slow: 0.25 }), 'bbb2222'),
    ];
    const series = seriesOf(history);
    expect(series.map((one: { name: string }) => one.name)).toEqual(['read', 'slow', 'write']);
    expect(series[1].points.map((point: { ratio: number; goal: number }) => [point.ratio, point.goal])).toEqual([
      [2, 0.5],
      [4, 0.5],
    ]);
    const svg = chartSvg(history);
    expect(svg.match(/<polyline /g)).toHaveLength(3);
    expect(svg.match(/<circle /g)).toHaveLength(5);
    // The write goal was missed in its one run: its point is drawn in the missed colour, with its figures.
    expect(svg).toContain('fill="#c33"><title>2026-01-02 bbb2222: 0.30 (goal 0.40)</title>');
  });
});
