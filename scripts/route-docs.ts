// The endpoint tables of docs/auth.md and docs/kv.md (KV version 2 and version 1), written from the engines' route rows: each route's summary, and
// each field's type, default and description as its declaration states them. The tables sit between markers:
//   <!-- routes:kv begin --> ... <!-- routes:kv end -->                every path of the engine, one row each;
//   <!-- fields:kv data/:path begin --> ... <!-- fields:kv data/:path end -->   the fields of the paths named (several
//                                                                     paths share a table when their fields agree).
// `npm run docs:routes` (scripts/generate-route-docs.mjs) rewrites the blocks; tests/package/route-docs.test.ts fails
// when they differ from the rows, or when a path with fields has no block.
import type { AuthContext } from '../src/auth/context/auth-context.js';
import { AREAS } from '../src/auth/paths/index.js';
import { formatDuration } from '../src/lib/duration.js';
import type { FieldHelp } from '../src/core/framework/field-help.js';
import { capabilitiesOf, methodsOf } from '../src/core/framework/router.js';
import { declaredFields, type Operation, type Route } from '../src/core/framework/routing-table.js';
import { kvRoutes, type KvRouteTargets } from '../src/kv/paths.js';
import { v1Routes, type V1RouteTargets } from '../src/kv/v1/v1-routes.js';

export interface RouteDoc {
  /** Relative to the repository root. */
  file: string;
  /** The name in the file's markers. */
  name: string;
  routes: readonly Route[];
}

// The rows are read, never run: they are built without the stores their handlers would use. The auth method's
// deprecated aliases are left out (docs/auth.md describes them in prose).
export const ROUTE_DOCS: readonly RouteDoc[] = [
  { file: 'docs/auth.md', name: 'auth', routes: AREAS.flatMap((area) => area({} as AuthContext)) },
  { file: 'docs/kv.md', name: 'kv', routes: kvRoutes({} as KvRouteTargets) },
  { file: 'docs/kv.md', name: 'kvv1', routes: v1Routes({} as V1RouteTargets) },
];

const OPERATIONS: readonly Operation[] = ['read', 'list', 'scan', 'write', 'patch', 'delete'];

/** A route's path as the docs write it: its own `path`, or its pattern with each named group written `:name`. */
function displayPath(route: Route): string {
  if (route.path !== undefined) return route.path;
  if (typeof route.pattern === 'string') return route.pattern;
  let source = route.pattern.source.replace(/^\^/, '').replace(/\$$/, '');
  const unnamed = () => new Error(`the route ${route.pattern} needs a \`path\` to be named in the docs`);
  for (let start = source.indexOf('(?<'); start >= 0; start = source.indexOf('(?<')) {
    const name = /^\(\?<(\w+)>/.exec(source.slice(start))?.[1];
    if (name === undefined) throw unnamed();
    let depth = 0;
    let end = start;
    for (; end < source.length; end++) {
      if (source[end] === '\\') end++;
      else if (source[end] === '(') depth++;
      else if (source[end] === ')' && --depth === 0) break;
    }
    source = `${source.slice(0, start)}:${name}${source.slice(end + 1)}`;
  }
  if (/(?<!\\)[()[\]*+?|.{}^$]/.test(source)) throw unnamed();
  return source.replace(/\\(.)/g, '$1');
}

function operationsOf(route: Route): Operation[] {
  return OPERATIONS.filter((operation) => route.operations[operation] !== undefined);
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

/** Every path of an engine: its methods, the capability each asks (in the same order), and its summary. */
function overviewTable(routes: readonly Route[]): string {
  const rows = routes.map((route) => {
    const path = displayPath(route);
    if (!route.summary) throw new Error(`the route ${path} has no summary`);
    const operations = operationsOf(route);
    const methods = operations.map((operation) => methodsOf(operation).join('/'));
    const capabilities = operations.map((operation) => capabilitiesOf(route, operation).join(' or ') || 'none');
    return [`\`${path}\``, methods.join(', '), capabilities.join(', '), route.summary];
  });
  return table(['Path', 'Methods', 'Capability', 'Summary'], rows);
}

function defaultText(help: Partial<FieldHelp>): string {
  if (!('default' in help)) return '';
  const value =
    help.type === 'duration' && typeof help.default === 'number' ? formatDuration(help.default) : help.default;
  return `\`${JSON.stringify(value)}\``;
}

/** The fields of one route, one row per field and description, naming the methods that take it. */
function fieldRows(route: Route): { rows: string[][]; methods: Set<string> } {
  const path = displayPath(route);
  const byField = new Map<string, { methods: string[]; row: string[] }>();
  const methods = new Set<string>();
  for (const operation of operationsOf(route)) {
    const definition = route.operations[operation];
    const source = (typeof definition === 'object' ? definition.fields : undefined) ?? route.fields;
    for (const [name, help] of declaredFields(source)) {
      if (!help.type) throw new Error(`the field ${name} of ${path} names no type`);
      if (!help.description) throw new Error(`the field ${name} of ${path} has no description`);
      const description = help.deprecated ? `Deprecated. ${help.description}` : help.description;
      const row = [`\`${name}\``, help.type, defaultText(help), description];
      const key = JSON.stringify(row);
      const entry = byField.get(key) ?? { methods: [], row };
      const method = methodsOf(operation).join('/');
      entry.methods.push(method);
      methods.add(method);
      byField.set(key, entry);
    }
  }
  // A field's rows side by side, in the order the fields first appear; a methods column only where the path's fields
  // differ between its methods.
  const names = [...byField.values()].map(({ row }) => row[0]);
  const entries = [...byField.values()].sort((a, b) => names.indexOf(a.row[0]) - names.indexOf(b.row[0]));
  const rows = entries.map(({ methods: taking, row }) =>
    methods.size > 1 ? [row[0]!, taking.join(', '), ...row.slice(1)] : row,
  );
  return { rows, methods };
}

function fieldsTable(routes: readonly Route[]): string {
  const [first, ...others] = routes.map(fieldRows);
  const header =
    first!.methods.size > 1
      ? ['Field', 'Methods', 'Type', 'Default', 'Description']
      : ['Field', 'Type', 'Default', 'Description'];
  const text = table(header, first!.rows);
  if (others.some((other) => table(header, other.rows) !== text)) {
    throw new Error(`the paths ${routes.map(displayPath).join(', ')} share a table but their fields differ`);
  }
  return text;
}

const BLOCK = /<!-- (routes|fields):(\w+)((?: [^\s>]+)*) begin -->\n[\s\S]*?<!-- \1:\2\3 end -->/g;

/** The document with its generated blocks written from the rows; throws on a block naming no path, or a path left out. */
export function renderDoc(text: string, doc: RouteDoc): string {
  const byPath = new Map(doc.routes.map((route) => [displayPath(route), route]));
  const tabled = new Set<string>();
  let overviews = 0;
  const rendered = text.replace(BLOCK, (block, kind: string, name: string, paths: string) => {
    if (name !== doc.name) {
      // A file may describe several engines: each renders its own blocks.
      if (ROUTE_DOCS.some((other) => other.file === doc.file && other.name === name)) return block;
      throw new Error(`${doc.file}: the block "${kind}:${name}" belongs to another engine`);
    }
    let body: string;
    if (kind === 'routes') {
      overviews++;
      body = overviewTable(doc.routes);
    } else {
      const named = paths.trim().split(' ');
      const routes = named.map((path) => {
        const found = byPath.get(path);
        if (!found) throw new Error(`${doc.file}: the block "fields:${name}" names ${path}, which no route has`);
        tabled.add(path);
        return found;
      });
      body = fieldsTable(routes);
    }
    return `<!-- ${kind}:${name}${paths} begin -->\n\n${body}\n\n<!-- ${kind}:${name}${paths} end -->`;
  });
  if (overviews !== 1)
    throw new Error(`${doc.file} needs one block <!-- routes:${doc.name} begin --> ... end -->, not ${overviews}`);
  for (const [path, route] of byPath) {
    if (!tabled.has(path) && fieldRows(route).rows.length > 0) {
      throw new Error(
        `${doc.file} has no table of the fields of ${path}: add <!-- fields:${doc.name} ${path} begin --> and its end where it is described`,
      );
    }
  }
  return rendered;
}
