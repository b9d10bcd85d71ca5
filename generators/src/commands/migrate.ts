import { didYouMean } from '@fw/schemas/suggest';
import { negatable, parseCommandArgs } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import { isInteractive, type CommandIO } from '../cli/io.js';
import { report } from '../cli/report.js';
import { INSTALL_OPTIONS, installHelp } from '../cli/install.js';
import { packageVersion } from '../package-info.js';
import { projectCaches } from '../cli/caches.js';
import { runPipeline } from '../pipeline/run.js';
import { findProjectRoot } from '../project.js';
import { MIGRATE_GENERATOR_ID, PROJECT_GENERATOR_ID } from '../project/generators.js';
import { registrationLines, renderWholeProject, writeWarnings } from '../project/regenerate.js';
import { readRecord } from '../pipeline/record.js';
import { configuredBinds, loadConfig } from '../project/config.js';
import type { AppBinds } from '../migrate/binds.js';

/** The `fw migrate` actions, `init` first. */
export const MIGRATE_COMMAND_ACTIONS = ['init', 'dev', 'deploy', 'status', 'reset', 'diff'] as const;

/** Usage text of `fw migrate`. */
export const help = `Usage: fw migrate <action> [options]

Actions:
  init     write the Prisma environment of every bind of fw.json's DATABASE_BINDS (prisma/...),
           merged with your edits like any generated file; run it again after adding a bind
  dev      prisma migrate dev, per bind (--name n names the migration)
  deploy   prisma migrate deploy, per bind
  status   prisma migrate status, per bind; exits 1 naming each migration the database has
           applied whose folder in prisma/<bind>/migrations is missing
  reset    prisma migrate reset, per bind (drops every table: needs --force)
  diff     the SQL between each bind's database and its schema

Options:
  --bind <name>   only this bind (default: every bind, in DATABASE_BINDS order)
  --force         consent to a destructive action (reset; dev without a terminal)
  --name <n>      the migration's name (dev only)
  --dry-run       init only: print the plan and diffs, write nothing
  --json          init only: print the result as JSON
${installHelp(18)}
  -h, --help      show this help

Binds come from DATABASE_BINDS, read as the app reads it (the project's @fw/kernel loader): the
environment over .env over app_configs/<app>.ini (FW_APP picks the app) over fw.json "config"
over the default {"main":"file:./var/main.db"}; X_FILE variants too; SECRET_KEY is not needed.
DATABASE_URL (or DATABASE_URL_FILE, a file holding it) in the environment or .env is the URL
of bind SECURITY_MODELS_DB_BIND ("main") unless DATABASE_BINDS is set there or in a layer above
(the environment's over .env's). Binds
from anywhere but fw.json or the default are named on standard error (passwords hidden). The
environments (prisma/<bind>/) are rendered from fw.json's binds, as they are committed: a bind
they lack, or whose URL here is of another provider, is refused before Prisma runs (init and
fw generate warn). See: npx fw docs databases`;

/**
 * The binds `fw migrate` works on: `DATABASE_BINDS` exactly as the app reads it (`appBinds`: the
 * project kernel's loader, without requiring `SECRET_KEY`; a bad value is the loader's error,
 * naming the file and key). Also answers the lines saying where the binds came from, when that is
 * neither `fw.json` nor the default (URLs without their passwords).
 */
async function bindsOf(root: string, env: NodeJS.ProcessEnv, only: string | undefined): Promise<{ app: AppBinds; notes: string[] }> {
  const { appBinds, DATABASE_URL_SOURCE } = await import('../migrate/binds.js');
  let app: AppBinds;
  try {
    app = await appBinds(root, env);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  const { binds, securityBind } = app;
  const from = [...app.sources];
  const notes: string[] = [];
  const givenIn = DATABASE_URL_SOURCE.exec(from.at(-1) ?? '')?.[1];
  if (givenIn !== undefined) {
    from.pop();
    // DATABASE_URL_FILE: the origin names the file and where the variable was set.
    const origin = app.origins[securityBind] ?? '';
    const where = origin.includes('(DATABASE_URL_FILE ') ? origin : givenIn === 'environment' ? 'the environment' : givenIn;
    if (only === undefined || only === securityBind) notes.push(`fw migrate: bind "${securityBind}" uses DATABASE_URL from ${where}`);
  }
  const source = from.at(-1);
  if (source !== undefined && source !== 'fw.json') {
    const { urlWithoutPassword } = await import('@fw/schemas');
    const shown = Object.entries(binds).map(([bind, url]) => `${bind}=${urlWithoutPassword(url)}`);
    notes.push(`fw migrate: DATABASE_BINDS from ${source}: ${shown.join(', ')}`);
  }
  return { app, notes };
}

/**
 * Refuses, before Prisma runs for any bind, when a selected bind's migration environment does not
 * fit the URL the app uses (`environmentProblems`): no environment (a bind named only in an ini
 * file or the environment), or one for another provider (an ini file's PostgreSQL URL for a bind
 * fw.json keeps on SQLite). The environments are rendered from fw.json; the error says where the
 * URL came from and the way out.
 */
async function checkEnvironments(root: string, app: AppBinds, selected: readonly string[]): Promise<void> {
  const { environmentOnDisk, environmentProblems } = await import('../migrate/binds.js');
  const loaded = await loadConfig(root);
  const fwJson = await configuredBinds(loaded, root);
  const problems = environmentProblems({
    app,
    selected,
    committed: fwJson.binds,
    committedSecurityBind: fwJson.securityBind,
    environment: (bind) => environmentOnDisk(root, bind),
    regenerate: (await migrateInitRan(root)) ? 'npx fw generate' : 'npx fw migrate init',
    check: 'migrate',
  });
  if (problems.length > 0) throw new CliError(problems.map((p) => p.message).join('\n'));
}

/** Whether the project ran `fw migrate init` (its record holds files of the `migrate` generator). */
async function migrateInitRan(root: string): Promise<boolean> {
  const record = await readRecord(root).catch(() => undefined);
  return Object.values(record?.files ?? {}).some((entry) => entry.generator === MIGRATE_GENERATOR_ID);
}

/**
 * `fw migrate init`: renders the Prisma environment of the binds in `fw.json` and merges it into
 * the project through the regeneration engine (generator `migrate`, recorded, so your models and
 * edits are kept and later `fw generate` runs keep it current). The project blueprint is part of
 * the run because the environment adds `@prisma/client` and `prisma` to `package.json`.
 */
async function init(root: string, io: CommandIO, dryRun: boolean, json: boolean, install: boolean | undefined): Promise<number> {
  const owns = (generator: string): boolean => generator === MIGRATE_GENERATOR_ID || generator === PROJECT_GENERATOR_ID;
  const { formatter, cache } = projectCaches(root, packageVersion(), io.env);
  const result = await runPipeline({
    root,
    command: 'fw migrate init',
    dryRun,
    tree: { formatter, cache, owns, generatorId: MIGRATE_GENERATOR_ID },
    render: async (tree) => {
      try {
        return await renderWholeProject(tree, { migrate: true, owns, cache, env: io.env });
      } catch (error) {
        if (error instanceof CliError) throw error;
        throw new CliError(error instanceof Error ? error.message : String(error));
      }
    },
  });
  const code = await report(io, result, { dryRun, json, install, lines: registrationLines(result.rendered), failed: result.rendered.note !== undefined });
  writeWarnings(io, result.rendered);
  return code;
}

/** `fw migrate <init|dev|deploy|status|reset|diff> [--bind name] [--force] [--name n]`. Returns the exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const command = 'fw migrate';
  const { values, positionals } = parseCommandArgs(command, argv, {
    bind: { type: 'string' },
    force: { type: 'boolean' },
    name: { type: 'string' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
    ...INSTALL_OPTIONS,
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  const [action, ...extra] = positionals;
  if (action === undefined || !(MIGRATE_COMMAND_ACTIONS as readonly string[]).includes(action)) {
    const got = action === undefined ? 'nothing' : `"${action}"`;
    const hint = action === undefined ? '' : didYouMean(action, MIGRATE_COMMAND_ACTIONS);
    throw new CliError(`${command}: got ${got}${hint}; expected one of ${MIGRATE_COMMAND_ACTIONS.join(', ')}. Run "${command} --help".`);
  }
  if (extra.length > 0) throw new CliError(`${command} ${action}: unexpected argument ${extra.join(' ')}`);
  const root = await findProjectRoot(io.cwd);
  if (action === 'init') {
    for (const flag of ['bind', 'force', 'name'] as const) {
      if (values[flag] !== undefined) throw new CliError(`${command} init: --${flag} does not apply to init (it writes the environment of every bind)`);
    }
    return init(root, io, values['dry-run'] === true, values.json === true, negatable(command, 'install', values.install, values['no-install']));
  }
  if (values['dry-run'] || values.json || values.install || values['no-install']) {
    throw new CliError(`${command} ${action}: --dry-run, --json and --install apply to init only`);
  }
  const { app, notes } = await bindsOf(root, io.env, values.bind);
  for (const note of notes) io.stderr.write(`${note}\n`);
  const { checkMigrateCommand, migrateCommandPlan, missingMigrationLines, runPrismaAll, MigrateError } = await import('../migrate/index.js');
  let code = 0;
  try {
    const options = {
      action: action as Exclude<(typeof MIGRATE_COMMAND_ACTIONS)[number], 'init'>,
      binds: app.binds,
      root,
      interactive: isInteractive(io),
      ...(values.bind === undefined ? {} : { bind: values.bind }),
      ...(values.force === undefined ? {} : { force: values.force }),
      ...(values.name === undefined ? {} : { name: values.name }),
    };
    // The command line first, then whether each bind's environment fits its URL, then the plan
    // (whose migration-history check assumes the environment is the one the URL needs).
    const selected = checkMigrateCommand(options);
    await checkEnvironments(root, app, selected);
    const plan = migrateCommandPlan(options);
    for (const result of await runPrismaAll(plan)) {
      // Standard error first: a successful Prisma run writes its preamble there ("Loaded Prisma
      // config from prisma/<bind>/...") before its results, so this keeps each bind's lines in
      // the order Prisma printed them instead of trailing into the next bind's output.
      if (result.stderr) io.stderr.write(result.stderr.endsWith('\n') ? result.stderr : `${result.stderr}\n`);
      if (result.stdout) io.stdout.write(result.stdout.endsWith('\n') ? result.stdout : `${result.stdout}\n`);
      // Applied migrations without a folder: Prisma's status returns early on them ("up to date").
      if (result.missing?.length) {
        for (const line of missingMigrationLines(result.bind, result.missing)) io.stderr.write(`${line}\n`);
        code = 1;
      }
    }
  } catch (error) {
    if (error instanceof MigrateError) throw new CliError(error.message);
    throw error;
  }
  return code;
}
