import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { additiveDir } from '../additive/render.js';
import { AUTH_SCAFFOLD_GENERATOR_ID } from '../auth/scaffold.js';
import { CliError } from '../cli/errors.js';
import { packageVersion } from '../package-info.js';
import { sha256 } from '../pipeline/hash.js';
import type { Cache } from '../pipeline/cache.js';
import type { Tree } from '../pipeline/tree.js';
import { hasConflictMarkers } from '../pipeline/merge.js';
import { summaryLine } from '../pipeline/print.js';
import type { RecordEntry } from '../pipeline/record.js';
import type { CommandIO } from '../cli/io.js';
import { configuredBinds, loadConfig, type LoadedConfig } from './config.js';
import { additiveGeneratorId, additiveOfGenerator, MIGRATE_GENERATOR_ID } from './generators.js';
import { renderParts } from './parts.js';
import { APP_FILE, externalAdditives, reconcileRegistrations } from './registrations.js';
import { renderProject } from './render.js';
import { projectSpecs } from './specs.js';
import { relinkMadePages } from './vite-pages.js';
import { strandedImportNotes } from './stranded.js';

/** Input of {@link renderWholeProject}. */
export interface WholeProjectInput {
  /** The config to render (default: read and validated from `fw.json`). */
  config?: LoadedConfig;
  /**
   * Render the Prisma environment (default: when the record shows `fw migrate init` ran).
   * `fw migrate init` sets it, so the environment and its dependencies arrive in one run.
   */
  migrate?: boolean;
  /** Render the auth scaffold (default: when the record holds its files; `fw create auth` sets it). */
  authScaffold?: boolean;
  /** The generators the run answers for (default: all); registrations follow the Additives it owns. */
  owns?: (generator: string) => boolean;
  /** Where slow renders are cached. */
  cache?: Cache;
  /**
   * The environment the command runs in. With it, a run that renders the Prisma environment
   * warns about the binds the app gets on this machine (ini file, `.env`, environment) that the
   * environment rendered from `fw.json` does not fit (see `environmentWarnings`).
   */
  env?: NodeJS.ProcessEnv;
}

/** The registration edit of `fluid/app.ts` a run makes (or why it makes none). */
export interface Registrations {
  added: string[];
  removed: string[];
  /** Why the registrations were not reconciled (the app file is missing or holds conflicts). */
  note?: string;
  /** What the run noticed in the config that the user should know (printed as `note:` lines; no failure). */
  notes?: string[];
  /**
   * What will go wrong later with this machine's config, though the run itself is fine (printed
   * as `warning:` lines on standard error by {@link writeWarnings}; no failure).
   */
  warnings?: string[];
}

/** Config that does not do what it looks like it does, in words (`fw.json` is the input of the renders). */
function configNotes(config: LoadedConfig['config']): string[] {
  const notes: string[] = [];
  const c = config.config;
  if (c.I18N_SUPPORTED_LOCALES !== undefined && c.EXT_I18N === false) {
    notes.push('fw.json sets I18N_SUPPORTED_LOCALES but also EXT_I18N = false, so the app serves the source strings untranslated: remove EXT_I18N (locales turn it on) or set it to true');
  }
  return notes;
}

/**
 * The `frontend` block of each Additive's `manifest.json` on disk, every manifest validated whole
 * (`parseAdditiveManifestText` of `@fw/schemas`, the kernel's reader too): invalid JSON, a
 * repeated key or a bad key is a {@link CliError} naming the file, line and key, never a silent
 * skip. A missing manifest is left out (a new Additive renders its own). With a `cache`, texts
 * that validated before under this fw version are not validated again (zod stays unloaded).
 */
async function readManifests(root: string, names: readonly string[], cache: Cache | undefined): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  const known = knownManifests(cache);
  for (const name of names) {
    let text: string;
    try {
      text = readFileSync(path.join(root, additiveDir(name), 'manifest.json'), 'utf8');
    } catch (error) {
      // No manifest yet (or a file where its folder goes: the pipeline then names it).
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      throw error;
    }
    const hash = sha256(name, text);
    out.set(name, Object.hasOwn(known, hash) ? known[hash] : await validateManifest(name, text, cache));
  }
  return out;
}

/** The manifest texts validated before under this fw version (hash → their `frontend` block). */
function knownManifests(cache: Cache | undefined): Record<string, unknown> {
  return cache?.render<Record<string, unknown>>('manifests', packageVersion()) ?? {};
}

/**
 * Remembers the manifests this run leaves on disk (merged with the user's edits) when they are
 * valid, so the next run need not validate them (nor load zod); an invalid one (a merge conflict)
 * is left for the next run to report. Only the manifests of `names` are kept.
 */
async function rememberManifests(tree: Tree, names: readonly string[], cache: Cache | undefined): Promise<void> {
  if (!cache || names.length === 0) return;
  const known = knownManifests(cache);
  const keep: Record<string, unknown> = {};
  for (const name of names) {
    const text = await tree.readText(`${additiveDir(name)}/manifest.json`);
    if (text === undefined) continue;
    const hash = sha256(name, text);
    if (Object.hasOwn(known, hash)) keep[hash] = known[hash];
    else keep[hash] = await validateManifest(name, text).catch(() => undefined);
    if (keep[hash] === undefined) delete keep[hash];
  }
  const same = Object.keys(keep).length === Object.keys(known).length && Object.keys(keep).every((hash) => Object.hasOwn(known, hash));
  if (!same) cache.setRender('manifests', packageVersion(), keep);
}

/**
 * Validates the manifest text of the Additive `name` whole; returns its `frontend` block. With a
 * `cache`, the text is remembered as valid, so the next `fw generate` does not validate it again.
 */
export async function validateManifest(name: string, text: string, cache?: Cache): Promise<unknown> {
  const { parseAdditiveManifestText } = await import('@fw/schemas');
  let frontend: unknown;
  try {
    frontend = parseAdditiveManifestText(text, `${additiveDir(name)}/manifest.json`, name).frontend;
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  if (cache) cache.setRender('manifests', packageVersion(), { ...knownManifests(cache), [sha256(name, text)]: frontend });
  return frontend;
}

/** The translation catalogs under `fluid/locales/` (path → text), for the i18n render. */
async function readCatalogs(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let names: string[];
  try {
    names = await readdir(path.join(root, 'fluid/locales'));
  } catch {
    return out;
  }
  for (const name of names.filter((n) => n.endsWith('.po') || n.endsWith('.pot')).sort()) {
    out.set(`fluid/locales/${name}`, await readFile(path.join(root, 'fluid/locales', name), 'utf8'));
  }
  return out;
}

/** The Additives the record holds files for (`additive:<name>` generators). */
function recordedAdditives(files: Record<string, RecordEntry>): Set<string> {
  const out = new Set<string>();
  for (const entry of Object.values(files)) {
    const name = additiveOfGenerator(entry.generator);
    if (name !== undefined) out.add(name);
  }
  return out;
}

/**
 * Renders the whole project from its `fw.json` into `tree` (what `fw generate` and `fw migrate
 * init` write): {@link renderProject} and {@link renderParts}, then the Additive registrations of
 * `fluid/app.ts`, made on what the file will hold after the merge: every local Additive of
 * `additives` registered, every Additive the record knows but `additives` no longer lists
 * unregistered.
 */
export async function renderWholeProject(tree: Tree, input: WholeProjectInput = {}): Promise<Registrations> {
  const root = tree.root;
  const [loaded, files, appOnDisk, specs] = await Promise.all([
    input.config ?? loadConfig(root, input.cache),
    tree.record(),
    readFile(path.join(root, APP_FILE), 'utf8').catch(() => undefined),
    projectSpecs(root),
  ]);
  const { config } = loaded;
  const owns = input.owns ?? (() => true);
  const external = externalAdditives(appOnDisk, config.additives);
  const migrate = input.migrate ?? Object.values(files).some((e) => e.generator === MIGRATE_GENERATOR_ID);
  const authScaffold = input.authScaffold ?? Object.values(files).some((e) => e.generator === AUTH_SCAFFOLD_GENERATOR_ID);
  const catalogs = config.config.I18N_SUPPORTED_LOCALES === undefined ? undefined : await readCatalogs(root);
  const localNames = config.additives.filter((n) => !external.has(n));
  const manifests = await readManifests(root, localNames, input.cache);
  await renderProject(tree, { config, defaults: loaded.defaults, specs, external, manifests });
  await renderParts(tree, { config, defaults: loaded.defaults, migrate, authScaffold, ...(catalogs ? { catalogs } : {}), ...(input.cache ? { cache: input.cache } : {}) });
  await rememberManifests(tree, localNames, input.cache);

  const local = config.additives.filter((n) => !external.has(n) && owns(additiveGeneratorId(n)));
  const recorded = recordedAdditives(files);
  const gone = [...recorded].filter((n) => !config.additives.includes(n) && owns(additiveGeneratorId(n)));
  const clashes = await newAdditiveClashes(tree, local.filter((n) => !recorded.has(n)), localNames);
  const registrations = await registerAdditives(tree, local, gone);
  const relinked = await relinkMadePages(tree, config.config.APP_FRONTEND);
  const notes = [...clashes, ...configNotes(config), ...(await strandedImportNotes(tree)), ...relinked];
  const warnings = (migrate || authScaffold) && input.env ? await environmentWarnings(root, await configuredBinds(loaded, root), input.env) : [];
  return { ...registrations, ...(notes.length > 0 ? { notes } : {}), ...(warnings.length > 0 ? { warnings } : {}) };
}

/**
 * Where the binds the app gets on this machine (`app_configs/<app>.ini`, `.env`, the environment,
 * read by the project's own kernel) do not fit the Prisma environment rendered from `fw.json`'s
 * binds (`committed`): a bind only this machine names gets no environment, and one whose URL is of
 * another provider gets an environment `fw migrate` refuses to run. A warning, not an error: the
 * rendered files are right for the team, and the ini file is one machine's. Nothing is said (and
 * the kernel is not loaded) when no ini file, `.env` or variable sets binds, or when the kernel is
 * not installed or the app's config does not load (the app reports that itself).
 */
async function environmentWarnings(root: string, fwJson: { binds: Readonly<Record<string, string>>; securityBind: string }, env: NodeJS.ProcessEnv): Promise<string[]> {
  const committed = fwJson.binds;
  const { appBinds, bindsMayBeOverridden, environmentProblems } = await import('../migrate/binds.js');
  if (!bindsMayBeOverridden(root, env)) return [];
  let app: Awaited<ReturnType<typeof appBinds>>;
  try {
    app = await appBinds(root, env);
  } catch {
    return [];
  }
  const { bindProvider } = await import('../migrate/urls.js');
  const environment = (bind: string) => {
    const url = committed[bind];
    if (url === undefined) return undefined;
    try {
      return { provider: bindProvider(bind, url) };
    } catch {
      return { provider: undefined };
    }
  };
  return environmentProblems({ app, committed, committedSecurityBind: fwJson.securityBind, environment, regenerate: 'npx fw generate', check: 'generate' }).map((problem) => problem.message);
}

/** Prints a run's {@link Registrations.warnings} on standard error, one `warning:` line each. */
export function writeWarnings(io: Pick<CommandIO, 'stderr'>, registrations: Registrations): void {
  for (const warning of registrations.warnings ?? []) io.stderr.write(`warning: ${warning}\n`);
}

/**
 * What `fw create additive` refuses, for the Additives that `fw.json` lists and fw never rendered
 * (added by hand, or renamed there): their routes, mount paths or templates clashing with the
 * app's or another Additive's. `fw generate` still renders them (fw.json is the source of truth),
 * and the note says what clashes.
 */
async function newAdditiveClashes(tree: Tree, added: readonly string[], local: readonly string[]): Promise<string[]> {
  if (added.length === 0) return [];
  const { additiveProposal, checkCollisions, describeCollisions } = await import('../codemods/index.js');
  const notes: string[] = [];
  for (const name of added) {
    const proposal = await additiveProposal(tree, name);
    const clashes = await checkCollisions(tree, proposal, local.filter((n) => n !== name));
    if (clashes.length === 0) continue;
    const [described] = describeCollisions(proposal, clashes).split('\nChoose another name');
    notes.push(`${described}\nRename it in fw.json "additives", or move the route or template it clashes with.`);
  }
  return notes;
}

/**
 * Makes `fluid/app.ts` register the local Additives `register` and not `unregister`, editing what
 * the file will hold after this run's merge (a codemod written into the tree on top of it). When
 * the file holds conflicts or does not exist, nothing is edited and the note says why.
 */
export async function registerAdditives(tree: Tree, register: readonly string[], unregister: readonly string[]): Promise<Registrations> {
  const result: Registrations = { added: [], removed: [] };
  if (register.length === 0 && unregister.length === 0) return result;
  const app = await tree.item(APP_FILE);
  const merged = await tree.readText(APP_FILE);
  if ((app && (app.conflicts > 0 || app.unresolved)) || (merged !== undefined && hasConflictMarkers(merged))) {
    // Only what is still to do: the registrations outside the conflict regions already count.
    const imports = (name: string): boolean => merged !== undefined && new RegExp(`['"]\\.\\./additives/${name}/index\\.js['"]`).test(merged);
    const pending = [
      ...register.filter((n) => !imports(n)).map((n) => `register ${n}`),
      ...unregister.filter(imports).map((n) => `unregister ${n}`),
    ];
    if (pending.length === 0) return result;
    return { ...result, note: `${APP_FILE} has conflicts: resolve them, then run \`fw generate\` again to ${pending.join(', ')}` };
  }
  if (merged === undefined) {
    return register.length === 0 ? result : { ...result, note: `${APP_FILE} does not exist: the Additives ${register.join(', ')} are not registered anywhere` };
  }
  const edit = await reconcileRegistrations(merged, register, unregister);
  if (edit.text !== merged) tree.write(APP_FILE, edit.text, { reason: 'Additive registrations updated' });
  return { added: edit.added, removed: edit.removed };
}

/** The lines reporting a registration edit (or why there is none). */
export function registrationLines(registrations: Registrations): string {
  const lines: string[] = [];
  for (const name of registrations.added) lines.push(summaryLine('register', APP_FILE, `fluid.additive(...) for additives/${name}`));
  for (const name of registrations.removed) lines.push(summaryLine('unregister', APP_FILE, `${name} is no longer in fw.json "additives"`));
  if (registrations.note) lines.push(`  note: ${registrations.note}`);
  for (const note of registrations.notes ?? []) lines.push(`  note: ${note}`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
