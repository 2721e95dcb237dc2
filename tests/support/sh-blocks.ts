// The shell blocks of a page of the documentation, with the marker that says how each one runs, and the scratch
// directory they run in. tests/package/production-doc.test.ts describes the markers and runs the blocks.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './doc-blocks.js';

export interface ShBlock {
  /** Relative to the repository root. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The words of the `<!-- run: ... -->` marker on the last non-blank line above the fence; none without one. */
  options: string[];
  /** The `## ` heading the block stands under ('' above the first). */
  section: string;
  code: string;
}

/**
 * The sections whose blocks depend on each other (a backup, then its restore; a token made, then renewed): marked
 * `<!-- run: sequence -->`, they are run in order, as one operator's session, by the test named here, which checks
 * that it runs every block of its sections.
 */
export const SEQUENCES: Readonly<Record<string, string>> = {
  Backups: 'tests/operator/production-doc.test.ts',
  'Key rotation and rekey': 'tests/operator/production-doc.test.ts',
  Metrics: 'tests/cli/docs-commands.test.ts',
};

export interface Fenced {
  line: number;
  language: string;
  code: string;
}

/** Every fenced block of `file`, with its language. */
export function fencedBlocks(file: string): Fenced[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: Fenced[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opening = /^```(\S*)/.exec(lines[index]!);
    if (!opening) continue;
    const end = lines.findIndex((line, at) => at > index && /^```\s*$/.test(line));
    if (end < 0) throw new Error(`${file}:${index + 1}: block never closed`);
    blocks.push({ line: index + 1, language: opening[1]!, code: lines.slice(index + 1, end).join('\n') + '\n' });
    index = end;
  }
  return blocks;
}

/** The ```sh (or bash, shell) blocks of `file` and their markers. */
export function shBlocks(file: string): ShBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  return fencedBlocks(file)
    .filter((block) => ['sh', 'bash', 'shell'].includes(block.language))
    .map((block) => {
      let above = block.line - 2;
      while (above >= 0 && lines[above]!.trim() === '') above--;
      const marker = /^<!--\s*run:\s*(.*?)\s*-->$/.exec(lines[above]?.trim() ?? '');
      const heading = lines
        .slice(0, block.line - 1)
        .reverse()
        .find((line) => line.startsWith('## '));
      return {
        file,
        line: block.line,
        options: marker ? marker[1]!.split(/[\s,]+/).filter(Boolean) : [],
        section: heading?.slice(3).trim() ?? '',
        code: block.code,
      };
    });
}

/** The blocks of `file` under the heading `section`, which must all be marked `sequence`, in order. */
export function sequenceBlocks(file: string, section: string): string[] {
  const blocks = shBlocks(file).filter((block) => block.section === section);
  const unmarked = blocks.filter((block) => !block.options.includes('sequence'));
  if (unmarked.length > 0) throw new Error(`${file}:${unmarked[0]!.line}: mark it <!-- run: sequence -->`);
  return blocks.map((block) => block.code);
}

/** The commands of a block: continuation lines joined, blank and comment lines left out. */
export function commandsOf(code: string): string[] {
  return code
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The system folders the pages name, which a block reaches inside its scratch directory instead. */
export const SYSTEM_FOLDERS = ['/var/lib/strongroom', '/var/log/strongroom', '/etc/strongroom', '/backups'];

/** `text` with every path in one of SYSTEM_FOLDERS moved under `fsRoot`. */
export function mapPaths(text: string, fsRoot: string): string {
  let mapped = text;
  for (const folder of SYSTEM_FOLDERS)
    mapped = mapped.replace(new RegExp(`(^|[\\s'"=:(])${folder}(?=[/\\s'"]|$)`, 'gm'), `$1${fsRoot}${folder}`);
  return mapped;
}

export interface Scratch {
  /** The working directory: an app whose `npx strongroom` is the built command. */
  dir: string;
  /** Where SYSTEM_FOLDERS live. */
  fs: string;
  /** PATH with the built `strongroom` first. */
  path: string;
}

/** A fresh scratch directory: the system folders made, `strongroom` on PATH and in node_modules/.bin. */
export function scratchFor(cli: string): Scratch {
  const dir = mkdtempSync(join(tmpdir(), 'strongroom-doc-'));
  const fs = join(dir, 'fs');
  for (const folder of SYSTEM_FOLDERS) mkdirSync(join(fs, folder), { recursive: true, mode: 0o700 });
  const command = `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`;
  for (const bin of [join(dir, 'bin'), join(dir, 'node_modules', '.bin')]) {
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'strongroom'), command);
    chmodSync(join(bin, 'strongroom'), 0o755);
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'operator', private: true }));
  return { dir, fs, path: `${join(dir, 'bin')}:${process.env.PATH}` };
}
