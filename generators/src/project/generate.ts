import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../engine/atomic.js';
import type { WriteEntry } from '../engine/file-tree.js';
import { readRecord, type GenerationRecord } from '../engine/record.js';
import { applyPlanToDisk } from '../regen/apply.js';
import { unifiedDiff } from '../regen/diff.js';
import { renderedFromTree } from '../regen/from-tree.js';
import { planRegeneration, type RegenPlan } from '../regen/regenerate.js';
import { hasConflicts, itemChangesDisk, itemDiff, summarise, toJSON, type RegenJson } from '../regen/summary.js';
import { removeTempLeftovers } from './cleanup.js';
import { loadConfig, type LoadedConfig } from './config.js';
import { additiveOfGenerator, MIGRATE_GENERATOR_ID } from './generators.js';
import { APP_FILE, externalAdditives, reconcileRegistrations } from './registrations.js';
import { renderProject } from './render.js';
import { projectSpecs } from './specs.js';

/** Options of {@link planGenerate}. */
export interface PlanGenerateOptions {
  /** Absolute project root. */
  root: string;
  /** Generator id recorded for new files and shown in `--json` (default `fw generate`). */
  generatorId?: string;
  /**
   * Which generators this run answers for (default: all, the whole project). Rendered files of
   * other generators are left out, and their record entries are never deleted.
   */
  scope?: (generator: string) => boolean;
  /** The config to render (default: read and validated from `fw.json`). */
  config?: LoadedConfig;
  /**
   * Render the Prisma environment (default: when the record shows `fw migrate init` ran).
   * `fw migrate init` sets it, so the environment and its dependencies arrive in one run.
   */
  migrate?: boolean;
}

/** The registration edit of `fluid/app.ts` a run makes after the merge. */
export interface AppEdit {
  /** The text after the merge (what the registrations are applied to). */
  before: string;
  /** The text with the registrations reconciled. */
  after: string;
  added: string[];
  removed: string[];
}

/** Everything a `fw generate` run would do. Nothing has been written. */
export interface GeneratePlan {
  root: string;
  plan: RegenPlan;
  /** The registration edit of `fluid/app.ts`, when one is needed. */
  app?: AppEdit;
  /** Why the registrations were not reconciled (app file missing or holding conflicts). */
  appNote?: string;
  /** Every path the run considers (its folders are searched for temp files of a killed run). */
  paths: string[];
  /** Seed files to create because they are missing (starter catalogs): written once, never recorded. */
  seeds: WriteEntry[];
}

/** The `frontend` block of each Additive's `manifest.json` on disk (absent or unreadable: left out, i.e. no surface). */
async function readManifests(root: string, names: readonly string[]): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  await Promise.all(
    names.map(async (name) => {
      try {
        const json = JSON.parse(await readFile(path.join(root, 'additives', name, 'manifest.json'), 'utf8')) as { frontend?: unknown };
        if (json.frontend !== undefined) out.set(name, json.frontend);
      } catch {
        // no manifest yet (a new additive renders its own, with no Vite surface)
      }
    }),
  );
  return out;
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
  for (const name of names.filter((n) => n.endsWith('.po') || n.endsWith('.pot'))) {
    out.set(`fluid/locales/${name}`, await readFile(path.join(root, 'fluid/locales', name), 'utf8'));
  }
  return out;
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The Additives the record holds files for (`additive:<name>` generators). */
function recordedAdditives(record: GenerationRecord | undefined): Set<string> {
  const out = new Set<string>();
  for (const entry of Object.values(record?.files ?? {})) {
    const name = additiveOfGenerator(entry.generator);
    if (name !== undefined) out.add(name);
  }
  return out;
}

/**
 * Plans a regeneration of the project from its current `fw.json`: renders everything
 * ({@link renderProject}), three-way merges it with the disk through the regeneration planner,
 * and works out the Additive registrations `fluid/app.ts` needs (registered for every local
 * Additive in `additives`, unregistered for an Additive the record knows but `additives` no
 * longer lists). Writes nothing: this is the whole of `--dry-run`.
 */
export async function planGenerate(options: PlanGenerateOptions): Promise<GeneratePlan> {
  const root = options.root;
  const [loaded, record, appText, specs] = await Promise.all([
    options.config ?? loadConfig(root),
    readRecord(root),
    readText(path.join(root, APP_FILE)),
    projectSpecs(root),
  ]);
  const { config } = loaded;
  const external = externalAdditives(appText, config.additives);
  const migrate = options.migrate ?? Object.values(record?.files ?? {}).some((e) => e.generator === MIGRATE_GENERATOR_ID);
  const catalogs = config.config.I18N_SUPPORTED_LOCALES === undefined ? undefined : await readCatalogs(root);
  const manifests = await readManifests(root, config.additives.filter((n) => !external.has(n)));
  const tree = await renderProject({ config, specs, external, migrate, manifests, ...(catalogs ? { catalogs } : {}) });
  const scope = options.scope;
  if (scope) for (const entry of tree.entries()) if (!scope(entry.generator)) tree.forget(entry.path);
  const { rendered, unrecorded } = await renderedFromTree(tree, root);
  const seeds: WriteEntry[] = [];
  for (const entry of unrecorded) {
    if (!(await access(path.join(root, entry.path)).then(() => true, () => false))) seeds.push(entry);
  }
  const plan = await planRegeneration({
    projectRoot: root,
    rendered,
    generatorId: options.generatorId ?? 'fw generate',
    owns: scope ?? (() => true),
    ...(record ? { record } : {}),
  });

  const result: GeneratePlan = { root, plan, seeds, paths: [...rendered.keys(), ...Object.keys(record?.files ?? {})] };
  const local = config.additives.filter((n) => !external.has(n) && (!scope || scope(`additive:${n}`)));
  const gone = [...recordedAdditives(record)].filter((n) => !config.additives.includes(n) && (!scope || scope(`additive:${n}`)));
  if (local.length === 0 && gone.length === 0) return result;
  const appItem = plan.items.find((i) => i.path === APP_FILE);
  if (appItem && (appItem.conflicts > 0 || appItem.unresolved)) {
    result.appNote = `${APP_FILE} has conflicts: resolve them, then run \`fw generate\` again to register ${[...local, ...gone].join(', ')}`;
    return result;
  }
  const merged = appItem?.remove ? undefined : appItem?.write ? appItem.write.toString('utf8') : appText;
  if (merged === undefined) {
    result.appNote = `${APP_FILE} does not exist: the Additives ${local.join(', ')} are not registered anywhere`;
    return result;
  }
  const edit = await reconcileRegistrations(merged, local, gone);
  if (edit.text !== merged) result.app = { before: merged, after: edit.text, added: edit.added, removed: edit.removed };
  return result;
}

/** Whether applying the plan writes or removes anything. */
export function generateChangesDisk(gp: GeneratePlan): boolean {
  return gp.app !== undefined || gp.seeds.length > 0 || gp.plan.items.some(itemChangesDisk);
}

/**
 * Carries out a {@link GeneratePlan}: removes the temp files a killed run left, applies the merge
 * (atomic writes, then `.fw/record.json` and `.fw/store` for exactly what was written), then
 * writes the registration edit of `fluid/app.ts` atomically. Every step is idempotent: a run
 * killed at any point is completed by the next one. Returns the temp files removed.
 */
export async function applyGenerate(gp: GeneratePlan): Promise<string[]> {
  const leftovers = await removeTempLeftovers(gp.root, [...gp.paths, APP_FILE, 'fw.json']);
  await applyPlanToDisk(gp.plan);
  for (const seed of gp.seeds) await writeFileAtomic(path.join(gp.root, seed.path), seed.content, seed.mode, seed.path);
  if (gp.app) {
    const item = gp.plan.items.find((i) => i.path === APP_FILE);
    await writeFileAtomic(path.join(gp.root, APP_FILE), Buffer.from(gp.app.after, 'utf8'), item?.mode ?? 0o644, APP_FILE);
  }
  return leftovers;
}

/** The lines reporting the registration edit (or why there is none). */
function registrationLines(gp: GeneratePlan): string {
  const lines: string[] = [];
  for (const seed of gp.seeds) lines.push(`  seed          ${seed.path}  (missing: written once, yours from now on, not in the record)`);
  for (const name of gp.app?.added ?? []) lines.push(`  register      ${APP_FILE}  (fluid.additive(...) for additives/${name})`);
  for (const name of gp.app?.removed ?? []) lines.push(`  unregister    ${APP_FILE}  (${name} is no longer in fw.json "additives")`);
  if (gp.appNote) lines.push(`  note: ${gp.appNote}`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** Human output of a run: with `dryRun`, every change as a unified diff first. */
export function formatGenerate(gp: GeneratePlan, options: { dryRun?: boolean; leftovers?: string[] } = {}): string {
  let out = '';
  if (options.dryRun) {
    out += gp.plan.items.map(itemDiff).join('');
    for (const seed of gp.seeds) out += unifiedDiff(seed.path, undefined, seed.content);
    if (gp.app) out += unifiedDiff(APP_FILE, gp.app.before, gp.app.after);
  }
  out += summarise(gp.plan) + registrationLines(gp);
  if (options.leftovers && options.leftovers.length > 0) out += `Removed ${options.leftovers.length} temp file(s) of an interrupted run: ${options.leftovers.join(', ')}\n`;
  if (options.dryRun) out += 'Dry run: nothing was written.\n';
  return out;
}

/** The `--json` document of a run: the regeneration's {@link RegenJson} plus the registrations. */
export interface GenerateJson extends RegenJson {
  dryRun: boolean;
  registrations: { added: string[]; removed: string[]; note?: string; diff?: string };
  /** Seed files written once (starter catalogs). */
  seeds: string[];
  leftovers: string[];
}

/** Machine output of a run (`--json`); with `dryRun` each file carries its diff. */
export function generateJSON(gp: GeneratePlan, options: { dryRun?: boolean; leftovers?: string[] } = {}): GenerateJson {
  const base = toJSON(gp.plan, { diffs: options.dryRun === true });
  return {
    ...base,
    exitCode: exitCodeOf(gp),
    dryRun: options.dryRun === true,
    registrations: {
      added: gp.app?.added ?? [],
      removed: gp.app?.removed ?? [],
      ...(gp.appNote ? { note: gp.appNote } : {}),
      ...(options.dryRun && gp.app ? { diff: unifiedDiff(APP_FILE, gp.app.before, gp.app.after) } : {}),
    },
    seeds: gp.seeds.map((s) => s.path),
    leftovers: options.leftovers ?? [],
  };
}

/** 1 when a conflict was written or is still unresolved, or a registration could not be made; else 0. */
export function exitCodeOf(gp: GeneratePlan): 0 | 1 {
  return hasConflicts(gp.plan) || gp.appNote !== undefined ? 1 : 0;
}
