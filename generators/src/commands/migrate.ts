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
import { loadConfig } from '../project/config.js';
import { MIGRATE_GENERATOR_ID, PROJECT_GENERATOR_ID } from '../project/generators.js';
import { registrationLines, renderWholeProject } from '../project/regenerate.js';

/** The `fw migrate` actions, `init` first. */
export const MIGRATE_COMMAND_ACTIONS = ['init', 'dev', 'deploy', 'status', 'reset', 'diff'] as const;

/** Usage text of `fw migrate`. */
export const help = `Usage: fw migrate <action> [options]

Actions:
  init     write the Prisma environment of every bind in DATABASE_BINDS (prisma/...), merged with
           your edits like any generated file; run it again after adding a bind
  dev      prisma migrate dev, per bind (--name n names the migration)
  deploy   prisma migrate deploy, per bind
  status   prisma migrate status, per bind
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

Binds come from DATABASE_BINDS: the environment variable (JSON) if set, else fw.json "config",
else the default {"main":"file:./var/main.db"}. Without DATABASE_BINDS in the environment,
DATABASE_URL there is the URL of bind SECURITY_MODELS_DB_BIND ("main"), as when the app runs.
See: npx fw docs databases`;

type Binds = Record<string, string>;

/**
 * The binds `fw migrate` works on: `DATABASE_BINDS` of the environment (JSON), else `fw.json`'s,
 * else the default; without `DATABASE_BINDS` in the environment, `DATABASE_URL` there is the URL
 * of the bind `SECURITY_MODELS_DB_BIND`, as in the runtime (`withDatabaseUrl` of `@fw/schemas`).
 */
async function bindsOf(config: Record<string, unknown>, env: NodeJS.ProcessEnv): Promise<{ binds: Binds; securityBind: string; fromDatabaseUrl?: string }> {
  const { configDefaults, withDatabaseUrl } = await import('@fw/schemas');
  const defaults = configDefaults();
  let binds = (config.DATABASE_BINDS ?? defaults.DATABASE_BINDS) as Binds;
  const fromEnv = env.DATABASE_BINDS;
  if (fromEnv !== undefined && fromEnv !== '') {
    try {
      binds = JSON.parse(fromEnv) as Binds;
    } catch {
      throw new CliError('environment variable DATABASE_BINDS: not valid JSON; expected an object of bind name -> URL');
    }
    if (typeof binds !== 'object' || binds === null || Array.isArray(binds)) {
      throw new CliError('environment variable DATABASE_BINDS: expected an object of bind name -> URL');
    }
  }
  const securityBind = env.SECURITY_MODELS_DB_BIND || ((config.SECURITY_MODELS_DB_BIND ?? defaults.SECURITY_MODELS_DB_BIND) as string);
  if ((fromEnv === undefined || fromEnv === '') && env.DATABASE_URL) {
    const result = withDatabaseUrl(binds, securityBind, env.DATABASE_URL);
    if ('error' in result) throw new CliError(`environment variable ${result.error}`);
    return { binds: result.binds, securityBind, fromDatabaseUrl: securityBind };
  }
  return { binds, securityBind };
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
        return await renderWholeProject(tree, { migrate: true, owns, cache });
      } catch (error) {
        if (error instanceof CliError) throw error;
        throw new CliError(error instanceof Error ? error.message : String(error));
      }
    },
  });
  return report(io, result, { dryRun, json, install, lines: registrationLines(result.rendered), failed: result.rendered.note !== undefined });
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
  const { config } = await loadConfig(root);
  const { binds, fromDatabaseUrl } = await bindsOf(config.config as Record<string, unknown>, io.env);
  if (fromDatabaseUrl !== undefined && (values.bind === undefined || values.bind === fromDatabaseUrl)) {
    io.stderr.write(`fw migrate: bind "${fromDatabaseUrl}" uses DATABASE_URL from the environment\n`);
  }
  const { migrateCommandPlan, runPrismaAll, MigrateError } = await import('../migrate/index.js');
  try {
    const plan = migrateCommandPlan({
      action: action as Exclude<(typeof MIGRATE_COMMAND_ACTIONS)[number], 'init'>,
      binds,
      root,
      interactive: isInteractive(io),
      ...(values.bind === undefined ? {} : { bind: values.bind }),
      ...(values.force === undefined ? {} : { force: values.force }),
      ...(values.name === undefined ? {} : { name: values.name }),
    });
    for (const result of await runPrismaAll(plan)) {
      // Standard error first: a successful Prisma run writes its preamble there ("Loaded Prisma
      // config from prisma/<bind>/...") before its results, so this keeps each bind's lines in
      // the order Prisma printed them instead of trailing into the next bind's output.
      if (result.stderr) io.stderr.write(result.stderr.endsWith('\n') ? result.stderr : `${result.stderr}\n`);
      if (result.stdout) io.stdout.write(result.stdout.endsWith('\n') ? result.stdout : `${result.stdout}\n`);
    }
  } catch (error) {
    if (error instanceof MigrateError) throw new CliError(error.message);
    throw error;
  }
  return 0;
}
