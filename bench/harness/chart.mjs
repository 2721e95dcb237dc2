// Draws bench/history.jsonl as an SVG of small charts, one per goal: each run's ratio (the median of the run's rounds)
// as a point on a line over the runs, with the goal as a dashed line, so a goal drifting toward its limit shows before
// it is missed. `node bench/harness/chart.mjs` rewrites docs/bench-history.svg; `npm run bench` does it after each full run.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readHistory } from './history.mjs';

const PANEL = { width: 300, height: 120, margin: 28 };
const COLUMNS = 3;

const escape = (text) =>
  String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** A slowdown goal is charted as its inverse (how many times faster), like the others: higher is better. */
function plotted({ kind, value, ratio }) {
  return kind === 'slowdown-max' ? { ratio: 1 / ratio, goal: 1 / value } : { ratio, goal: value };
}

/** Each goal named in the history, in the order of its first appearance, with one point per run that measured it. */
export function seriesOf(history) {
  const byName = new Map();
  history.forEach((entry, run) => {
    for (const goal of entry.goals) {
      if (!byName.has(goal.name)) byName.set(goal.name, []);
      byName.get(goal.name).push({ run, commit: entry.commit, date: entry.date, ...plotted(goal) });
    }
  });
  return [...byName].map(([name, points]) => ({ name, points }));
}

function panel({ name, points }, index, runs) {
  const x0 = (index % COLUMNS) * PANEL.width;
  const y0 = Math.floor(index / COLUMNS) * PANEL.height;
  const { width, height, margin } = PANEL;
  const top = Math.max(...points.map((p) => Math.max(p.ratio, p.goal))) * 1.15;
  const x = (run) => x0 + margin + (runs > 1 ? (run / (runs - 1)) * (width - 2 * margin) : (width - 2 * margin) / 2);
  const y = (value) => y0 + height - margin + 8 - (value / top) * (height - margin - 18);
  const goal = points.at(-1).goal;
  const line = points.map((p) => `${x(p.run).toFixed(1)},${y(p.ratio).toFixed(1)}`).join(' ');
  const dots = points
    .map((p) => {
      const met = p.ratio >= p.goal;
      const title = `${p.date.slice(0, 10)} ${p.commit}: ${p.ratio.toFixed(2)} (goal ${p.goal.toFixed(2)})`;
      return `<circle cx="${x(p.run).toFixed(1)}" cy="${y(p.ratio).toFixed(1)}" r="3" fill="${met ? '#2a7' : '#c33'}"><title>${escape(title)}</title></circle>`;
    })
    .join('');
  const last = points.at(-1);
  return [
    `<text x="${x0 + 6}" y="${y0 + 14}" font-size="10">${escape(name.length > 52 ? `${name.slice(0, 51)}…` : name)}</text>`,
    `<line x1="${x0 + margin}" x2="${x0 + width - margin}" y1="${y(goal).toFixed(1)}" y2="${y(goal).toFixed(1)}" stroke="#888" stroke-dasharray="4 3"/>`,
    `<text x="${x0 + width - margin + 2}" y="${(y(goal) + 3).toFixed(1)}" font-size="8" fill="#666">${goal.toFixed(2)}</text>`,
    `<polyline points="${line}" fill="none" stroke="#36c" stroke-width="1.5"/>`,
    dots,
    `<text x="${x0 + margin}" y="${y0 + height - 6}" font-size="8" fill="#666">last ${last.ratio.toFixed(2)}, ${points.length} run(s)</text>`,
  ].join('');
}

/** The whole chart as an SVG document. */
export function chartSvg(history) {
  const series = seriesOf(history);
  const rows = Math.max(1, Math.ceil(series.length / COLUMNS));
  const width = COLUMNS * PANEL.width;
  const height = rows * PANEL.height;
  const body = series.map((one, index) => panel(one, index, history.length)).join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">\n<rect width="100%" height="100%" fill="#fff"/>\n${body}\n</svg>\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const history = readHistory(fileURLToPath(new URL('../history.jsonl', import.meta.url)));
  const output = fileURLToPath(new URL('../../docs/bench-history.svg', import.meta.url));
  writeFileSync(output, chartSvg(history));
  console.error(`[bench] ${history.length} run(s) charted in ${output}`);
}
