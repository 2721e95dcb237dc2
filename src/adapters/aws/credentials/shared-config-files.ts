/**
 * The shared AWS config and credentials files (INI): where they are, and the merged settings of each profile. The
 * credentials file wins over the config file for a key both set, as in the AWS CLI.
 */
import { join } from 'node:path';
import { readOptionalFile, type Environment } from './credential-source.js';

export type Profile = Readonly<Record<string, string>>;

export interface SharedFiles {
  /** Profile name -> settings. */
  profiles: Map<string, Profile>;
  /** The paths read, for messages. */
  paths: string[];
  /** Both files' text: a change of either invalidates what was derived from them. */
  contents: string;
}

/** Paths come from the injected env only (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE, else HOME/.aws/...). */
function pathsOf(env: Environment): { config?: string; credentials?: string } {
  const home = env.HOME || env.USERPROFILE;
  const expand = (path: string) => (home && /^~(?=$|[\\/])/.test(path) ? home + path.slice(1) : path);
  const config = env.AWS_CONFIG_FILE ? expand(env.AWS_CONFIG_FILE) : home && join(home, '.aws', 'config');
  const credentials = env.AWS_SHARED_CREDENTIALS_FILE
    ? expand(env.AWS_SHARED_CREDENTIALS_FILE)
    : home && join(home, '.aws', 'credentials');
  return { ...(config && { config }), ...(credentials && { credentials }) };
}

/** Sections and their `key = value` lines; comments (# ;) and nested sub-sections (indented lines) are skipped. */
function parseIni(text: string): Map<string, Record<string, string>> {
  const sections = new Map<string, Record<string, string>>();
  let current: Record<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s[#;].*$/, '').trimEnd();
    if (line.trim() === '' || /^\s*[#;]/.test(line)) continue;
    const section = /^\[\s*([^\]]+?)\s*\]$/.exec(line.trim());
    if (section) {
      current = sections.get(section[1] as string) ?? {};
      sections.set(section[1] as string, current);
      continue;
    }
    if (/^\s/.test(raw)) continue;
    const pair = /^([^=]+?)\s*=\s*(.*)$/.exec(line);
    if (pair && current) current[(pair[1] as string).toLowerCase()] = pair[2] as string;
  }
  return sections;
}

export async function readSharedFiles(env: Environment): Promise<SharedFiles> {
  const paths = pathsOf(env);
  const configText = paths.config ? ((await readOptionalFile(paths.config)) ?? '') : '';
  const credentialsText = paths.credentials ? ((await readOptionalFile(paths.credentials)) ?? '') : '';
  const profiles = new Map<string, Record<string, string>>();
  for (const [section, values] of parseIni(configText)) {
    // The config file names profiles `[profile x]`, except `[default]`.
    const name = section === 'default' ? section : /^profile\s+(.+)$/.exec(section)?.[1];
    if (name !== undefined) profiles.set(name, { ...profiles.get(name), ...values });
  }
  for (const [name, values] of parseIni(credentialsText)) profiles.set(name, { ...profiles.get(name), ...values });
  return {
    profiles,
    paths: [paths.config, paths.credentials].filter((path): path is string => path !== undefined),
    contents: JSON.stringify([configText, credentialsText]),
  };
}
