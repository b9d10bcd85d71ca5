import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Tree } from '../pipeline/tree.js';
import { readRoutes, relativeImports, routerPrefix, type Route, type RouteSource } from './routes.js';

/** A template a change adds or the project has: its name as `render()` looks it up, and its file. */
export interface TemplateFile {
  name: string;
  where: string;
}

/** What a change would add to the app, checked by {@link checkCollisions} before anything is written. */
export interface Proposal {
  /** The change, for messages: `additive "blog"`. */
  label: string;
  /** Routes it adds (full paths and names). */
  routes: Route[];
  /** URL prefixes it would own (an Additive owns `/<name>`, `/api/<name>`, `/ws/<name>`). */
  mounts: string[];
  /** Templates it adds. */
  templates: TemplateFile[];
}

/** One clash between a proposal and what the project already has, in words naming both sides. */
export interface Collision {
  message: string;
}

/** What the project already serves. */
export interface RouteTable {
  routes: Route[];
  /** Prefixes each existing Additive owns. */
  mounts: Array<{ prefix: string; owner: string }>;
  templates: TemplateFile[];
}

const show = (r: Route): string => `${r.method} ${r.path} ("${r.name}", ${r.where})`;

/** `/blog/` and `/blog` are one path; `:id` and `:slug` one parameter. */
function normalPath(p: string): string {
  const trimmed = p.length > 1 ? p.replace(/\/+$/, '') : p;
  return trimmed.replace(/:[^/]+/g, ':');
}

function sameMethod(a: string, b: string): boolean {
  if (a === 'WS' || b === 'WS') return a === b;
  return a === b || a === 'ALL' || b === 'ALL';
}

const under = (p: string, prefix: string): boolean => normalPath(p) === prefix || p.startsWith(`${prefix}/`);

/**
 * The clashes of a proposal with a route table: a route name already taken; the same method and
 * path (`/x` and `/x/` are one path); an existing route under a prefix the proposal would own
 * (the Additive would shadow it), or a proposed route under an Additive's prefix; a template name
 * another template already answers to (templates are looked up app first, then Additives).
 */
export function findCollisions(table: RouteTable, proposal: Proposal): Collision[] {
  const out: Collision[] = [];
  for (const mine of proposal.routes) {
    for (const theirs of table.routes) {
      if (mine.name === theirs.name) out.push({ message: `route name "${mine.name}" of ${show(mine)} is already taken by ${show(theirs)}` });
      else if (sameMethod(mine.method, theirs.method) && normalPath(mine.path) === normalPath(theirs.path)) {
        out.push({ message: `${show(mine)} would answer the same requests as ${show(theirs)}` });
      }
    }
    for (const mount of table.mounts) {
      if (under(mine.path, mount.prefix)) out.push({ message: `${show(mine)} is under ${mount.prefix}, where ${mount.owner} is mounted` });
    }
  }
  for (const prefix of proposal.mounts) {
    for (const theirs of table.routes) {
      if (under(theirs.path, prefix)) {
        out.push({ message: `${show(theirs)} is under ${prefix}, where ${proposal.label} would be mounted (so it would take those requests)` });
      }
    }
  }
  for (const mine of proposal.templates) {
    const theirs = table.templates.find((t) => t.name === mine.name);
    if (theirs) out.push({ message: `template "${mine.name}" (${mine.where}) is already ${theirs.where}, which render() finds first` });
  }
  return out;
}

/** One line naming every clash, for an error. */
export function describeCollisions(proposal: Proposal, collisions: readonly Collision[]): string {
  return `${proposal.label} clashes with what the app already has:\n${collisions.map((c) => `  - ${c.message}`).join('\n')}\n` +
    'Choose another name, or move the route or template it clashes with; pass --force to write it anyway.';
}

/** The project-relative `.ts` modules of an Additive (its own folder, not its frontend workspace). */
async function additiveSources(tree: Tree, name: string): Promise<RouteSource[]> {
  const dir = `additives/${name}`;
  const names = new Set<string>();
  for (const entry of await readdir(path.join(tree.root, dir), { withFileTypes: true }).catch(() => [])) {
    if (entry.isFile() && entry.name.endsWith('.ts')) names.add(`${dir}/${entry.name}`);
  }
  for (const file of tree.renderedPaths()) if (path.posix.dirname(file) === dir && file.endsWith('.ts')) names.add(file);
  const out: RouteSource[] = [];
  for (const file of [...names].sort()) {
    const text = await tree.readText(file);
    if (text !== undefined) out.push({ path: file, text });
  }
  return out;
}

/** Template names under `<dir>/templates/` (on disk and rendered), as `render()` resolves them. */
async function templatesIn(tree: Tree, dir: string): Promise<TemplateFile[]> {
  const root = `${dir}/templates/`;
  const files = new Set<string>();
  const entries = await readdir(path.join(tree.root, root), { recursive: true, withFileTypes: true }).catch(() => []);
  for (const e of entries) if (e.isFile()) files.add(path.relative(tree.root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  for (const file of tree.renderedPaths()) if (file.startsWith(root)) files.add(file);
  return [...files].sort().map((file) => ({ name: file.slice(root.length), where: `in ${file}` }));
}

/**
 * What `fw create additive <name>` adds, read from its files in the tree (render them first): its
 * routes, the prefixes it owns, its templates.
 */
export async function additiveProposal(tree: Tree, name: string): Promise<Proposal> {
  const routes = await readRoutes(undefined, new Map([[name, await additiveSources(tree, name)]]));
  return {
    label: `additive "${name}"`,
    routes,
    mounts: (['app', 'api', 'ws'] as const).map((r) => routerPrefix(r, name)),
    templates: await templatesIn(tree, `additives/${name}`),
  };
}

/**
 * The routes `fluid/app.ts` and the local Additives of `additives` declare, read through `tree`
 * (pending changes count): what {@link checkCollisions} checks against, and what `fw make test`
 * writes a test for.
 */
export async function projectRoutes(tree: Tree, additives: readonly string[]): Promise<Route[]> {
  const sources = new Map<string, RouteSource[]>();
  for (const name of additives) sources.set(name, await additiveSources(tree, name));
  return readRoutes(await appModules(tree), sources);
}

/**
 * `fluid/app.ts` and every project module it reaches by relative imports (`./posts.js`, and what
 * that imports), where the app's routes may be registered (`registerPosts(fluid)` in
 * `fluid/posts.ts`). Additives are read as Additives (their routes are prefixed), not here.
 */
async function appModules(tree: Tree): Promise<RouteSource[]> {
  const out: RouteSource[] = [];
  const seen = new Set<string>();
  const queue: string[][] = [['fluid/app.ts']];
  while (queue.length > 0) {
    for (const file of queue.shift()!) {
      if (seen.has(file)) break;
      // A path the tree refuses (node_modules/, .fw/) is not one of the app's modules.
      const text = await tree.readText(file).catch(() => undefined);
      if (text === undefined) continue;
      seen.add(file);
      const source = { path: file, text };
      out.push(source);
      queue.push(...(await relativeImports(source)).filter((candidates) => !candidates.some((c) => c.startsWith('additives/'))));
      break;
    }
  }
  return out;
}

/** Options of {@link checkCollisions}. */
export interface CollisionOptions {
  /** The proposal goes inside this Additive (`fw make route --additive blog`): being under its prefixes is no clash. */
  within?: string;
}

/**
 * Checks a proposal against the app (`fluid/app.ts`, `fluid/templates/`) and every local Additive
 * of `additives` (their modules and templates), all read through `tree`, so pending changes count.
 * Returns the clashes (empty: none). `fw create additive` refuses on any unless `--force`; a
 * generator adding a route or a page (`fw make route`, `fw make page`) calls it the same way with
 * its own {@link Proposal}.
 */
export async function checkCollisions(tree: Tree, proposal: Proposal, additives: readonly string[], options: CollisionOptions = {}): Promise<Collision[]> {
  const mounted = additives.filter((name) => name !== options.within);
  const table: RouteTable = {
    routes: await projectRoutes(tree, additives),
    mounts: mounted.flatMap((name) => (['app', 'api', 'ws'] as const).map((r) => ({ prefix: routerPrefix(r, name), owner: `additive "${name}"` }))),
    templates: [...(await templatesIn(tree, 'fluid')), ...(await Promise.all(additives.map((n) => templatesIn(tree, `additives/${n}`)))).flat()],
  };
  return findCollisions(table, proposal);
}
