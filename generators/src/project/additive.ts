import { access, readdir, readFile, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { parseAdditiveManifest, validateAdditiveName } from '@fw/schemas';
import { CliError } from '../cli/errors.js';
import { writeFileAtomic } from '../engine/atomic.js';
import { readRecord } from '../engine/record.js';
import { applyPlanToDisk } from '../regen/apply.js';
import { planDestroy, type DestroyPlan } from '../regen/destroy.js';
import { loadConfig, editAdditives, writeConfig } from './config.js';
import { applyGenerate, planGenerate, type GeneratePlan } from './generate.js';
import { additiveGeneratorId } from './generators.js';
import { APP_FILE, reconcileRegistrations } from './registrations.js';

const exists = (file: string): Promise<boolean> => access(file).then(() => true, () => false);

/** Options of {@link createAdditive}. */
export interface CreateAdditiveOptions {
  root: string;
  name: string;
  dryRun?: boolean;
}

/**
 * `fw create additive <name>`: validates the name (pattern, reserved paths, JS reserved words,
 * an existing additive in `fw.json` or an `additives/<name>/` folder), adds it to `fw.json`
 * `additives`, renders `blueprints/additive` into `additives/<name>/` through the regeneration
 * engine (generator `additive:<name>`, recorded) and registers it in `fluid/app.ts` with the
 * `registerAdditive` codemod. The order (fw.json first) means a run killed halfway is completed by
 * `fw generate`. With `dryRun` nothing is written. The caller holds the project lock.
 */
export async function createAdditive(options: CreateAdditiveOptions): Promise<GeneratePlan> {
  const { root, name } = options;
  const [ok, reason] = validateAdditiveName(name);
  if (!ok) throw new CliError(reason);
  const loaded = await loadConfig(root);
  if (loaded.config.additives.includes(name)) throw new CliError(`additive "${name}" already exists: fw.json "additives" lists it`);
  if (await exists(path.join(root, 'additives', name))) {
    throw new CliError(`additives/${name} already exists; choose another name or remove that folder first`);
  }
  const text = editAdditives(loaded.text, (list) => [...list, name]);
  const config = { ...loaded, text, config: { ...loaded.config, additives: [...loaded.config.additives, name] } };
  const generator = additiveGeneratorId(name);
  const gp = await planGenerate({ root, generatorId: generator, scope: (g) => g === generator, config });
  const manifest = gp.plan.items.find((i) => i.path === `additives/${name}/manifest.json`)?.write;
  if (manifest) parseAdditiveManifest(JSON.parse(manifest.toString('utf8')), `additives/${name}/manifest.json`);
  if (options.dryRun) return gp;
  await writeConfig(root, text);
  await applyGenerate(gp);
  return gp;
}

/** Options of {@link destroyAdditive}. */
export interface DestroyAdditiveOptions {
  root: string;
  name: string;
  force?: boolean;
  dryRun?: boolean;
}

/** What {@link destroyAdditive} did (or would do). */
export interface DestroyResult {
  plan: DestroyPlan;
  /** Whether `fluid/app.ts` lost the registration. */
  unregistered: boolean;
  /** Whether `fw.json` lost the entry. */
  configChanged: boolean;
  /** Files left in `additives/<name>/` that fw never generated (yours). */
  kept: string[];
}

async function removeEmptyDirs(dir: string, stop: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const n of names) await removeEmptyDirs(path.join(dir, n), stop).catch(() => undefined);
  if (dir !== stop && (await readdir(dir).catch(() => ['x'])).length === 0) await rmdir(dir).catch(() => undefined);
}

async function listFiles(dir: string, base: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => !e.isDirectory()).map((e) => path.relative(base, path.join(e.parentPath, e.name)).split(path.sep).join('/')).sort();
  } catch {
    return [];
  }
}

/**
 * `fw destroy additive <name> [--force]`: removes every file recorded for `additive:<name>`,
 * refusing (and changing nothing) when one was edited unless `force`, then removes the entry
 * from `fw.json` `additives` and the registration from `fluid/app.ts` (`unregisterAdditive`
 * codemod). fw.json goes first, so a run killed halfway is completed by `fw generate`. The
 * caller holds the project lock.
 */
export async function destroyAdditive(options: DestroyAdditiveOptions): Promise<DestroyResult> {
  const { root, name } = options;
  const [ok, reason] = validateAdditiveName(name);
  if (!ok) throw new CliError(reason);
  const loaded = await loadConfig(root);
  const generator = additiveGeneratorId(name);
  const record = await readRecord(root);
  const recorded = Object.values(record?.files ?? {}).some((e) => e.generator === generator);
  const listed = loaded.config.additives.includes(name);
  if (!recorded && !listed) throw new CliError(`no additive "${name}": fw.json "additives" does not list it and fw generated no files for it`);
  const plan = await planDestroy({ projectRoot: root, generatorId: generator, force: options.force === true });
  if (plan.refused.length > 0) {
    throw new CliError(
      `you edited ${plan.refused.length} file(s) of additive "${name}", so nothing was removed: ${plan.refused.join(', ')}. ` +
        'Pass --force to remove them anyway (your edits are lost), or keep what you need elsewhere first.',
    );
  }
  const appPath = path.join(root, APP_FILE);
  const appText = await readFile(appPath, 'utf8').catch(() => undefined);
  const edit = appText === undefined ? undefined : await reconcileRegistrations(appText, [], [name]);
  const result: DestroyResult = { plan, unregistered: edit !== undefined && edit.text !== appText, configChanged: listed, kept: [] };
  if (options.dryRun) return result;
  if (listed) await writeConfig(root, editAdditives(loaded.text, (list) => list.filter((n) => n !== name)));
  await applyPlanToDisk(plan);
  if (edit && appText !== undefined && edit.text !== appText) await writeFileAtomic(appPath, Buffer.from(edit.text, 'utf8'), 0o644, APP_FILE);
  const dir = path.join(root, 'additives', name);
  await removeEmptyDirs(dir, path.join(root, 'additives'));
  result.kept = await listFiles(dir, root);
  return result;
}
