// The systemd units that docs/production.md defines, checked as systemd would take them: `systemd-analyze verify` in
// a root holding the unit and its programs, then the unit run by hand (ExecStart with its environment, ExecReload with
// MAINPID after a log rotation, SIGTERM to stop).
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { request } from '../server/harness.js';
import { fencedBlocks, mapPaths, type Scratch } from '../support/sh-blocks.js';

export interface Unit {
  /** strongroom.service */
  name: string;
  /** Its place: /etc/systemd/system/strongroom.service */
  path: string;
  text: string;
}

/** The ```ini blocks of `file` whose first line is `# /etc/systemd/system/NAME.service`. */
export function unitsOf(file: string): Unit[] {
  return fencedBlocks(file)
    .filter((block) => block.language === 'ini')
    .flatMap((block) => {
      const found = /^# (\/etc\/systemd\/system\/([\w@.-]+\.service))\n/.exec(block.code);
      return found ? [{ name: found[2]!, path: found[1]!, text: block.code }] : [];
    });
}

/** The values of `key=` in the unit, in order. */
const settings = (unit: Unit, key: string) =>
  unit.text
    .split('\n')
    .filter((line) => line.startsWith(`${key}=`))
    .map((line) => line.slice(key.length + 1));

/** `systemd-analyze verify` with the unit in a root of its own, ExecStart's program being the built command. */
function verify(unit: Unit, scratch: Scratch, cli: string): void {
  const systemRoot = join(scratch.dir, 'systemd-root');
  mkdirSync(dirname(join(systemRoot, unit.path)), { recursive: true });
  writeFileSync(join(systemRoot, unit.path), unit.text);
  mkdirSync(join(systemRoot, 'usr/lib/systemd'), { recursive: true });
  symlinkSync('/usr/lib/systemd/system', join(systemRoot, 'usr/lib/systemd/system'));
  for (const key of ['ExecStart', 'ExecReload', 'ExecStop']) {
    for (const line of settings(unit, key)) {
      const program = line.split(/\s+/)[0]!.replace(/^[-@:+!]+/, '');
      const target = join(systemRoot, program);
      mkdirSync(dirname(target), { recursive: true });
      if (key === 'ExecStart')
        writeFileSync(target, `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`, { mode: 0o755 });
      else copyFileSync(program, target);
    }
  }
  const analyze = spawnSync('systemd-analyze', ['verify', `--root=${systemRoot}`, unit.name], { encoding: 'utf8' });
  if (analyze.error) throw new Error(`systemd-analyze is needed to check ${unit.name} (Debian's systemd package)`);
  expect(analyze.status, `systemd-analyze verify ${unit.name}:\n${analyze.stderr}`).toBe(0);
}

/** The unit's environment: Environment= lines, then EnvironmentFile= when it exists, paths moved into the scratch. */
function environmentOf(unit: Unit, scratch: Scratch): Record<string, string> {
  const env: Record<string, string> = {};
  const assign = (line: string) => {
    const at = line.indexOf('=');
    if (at > 0) env[line.slice(0, at)] = mapPaths(line.slice(at + 1), scratch.fs);
  };
  settings(unit, 'Environment').forEach(assign);
  for (const file of settings(unit, 'EnvironmentFile')) {
    const path = mapPaths(file.replace(/^-/, ''), scratch.fs);
    if (existsSync(path)) readFileSync(path, 'utf8').split('\n').filter(Boolean).forEach(assign);
  }
  return env;
}

/** Verifies the unit, then runs it through a start, a log rotation with ExecReload, and a stop. */
export async function checkUnit(unit: Unit, scratch: Scratch, cli: string, base: NodeJS.ProcessEnv): Promise<void> {
  verify(unit, scratch, cli);
  const env = { ...base, ...environmentOf(unit, scratch) };
  const [start] = settings(unit, 'ExecStart');
  const [, ...args] = start!.split(/\s+/);
  const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        const found = /listening on (http\S+)/.exec(said);
        if (found && said.includes('VAULT_ADDR')) resolve(found[1]!);
      });
      void exited.then(() => reject(new Error(`${unit.name} exited at start:\n${said}`)));
    });
    const audit = env.STRONGROOM_AUDIT_FILE;
    if (audit) renameSync(audit, `${audit}.1`);
    for (const reload of settings(unit, 'ExecReload')) {
      const [program, ...rest] = reload.replace(/\$MAINPID/g, String(child.pid)).split(/\s+/);
      const ran = spawnSync(program!, rest, { encoding: 'utf8' });
      expect(ran.status, `${reload}: ${ran.stderr}`).toBe(0);
    }
    await expect.poll(() => said, { timeout: 10_000 }).toContain('SIGHUP');
    if (audit) {
      expect(said).toContain(`SIGHUP: reopened the audit file ${audit}`);
      expect(statSync(audit).mode & 0o777).toBe(0o600);
    }
    expect((await request(url, { path: '/v1/sys/health' })).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}
