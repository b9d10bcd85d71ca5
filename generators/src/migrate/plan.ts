import path from 'node:path';
import { MigrateError } from './errors.js';
import { checkMigrationHistory } from './history.js';
import type { PostgresTrial } from './trial.js';
import { bindEnvVar, bindProvider, prismaUrl, sqliteFile } from './urls.js';

/** The `fw migrate` actions that pass through to the Prisma CLI. */
export type MigrateAction = 'dev' | 'deploy' | 'status' | 'reset' | 'diff';

/** The actions {@link migrateCommandPlan} accepts, in the order `fw migrate --help` lists them. */
export const MIGRATE_ACTIONS: readonly MigrateAction[] = ['dev', 'deploy', 'status', 'reset', 'diff'];

/** Input of {@link migrateCommandPlan}. */
export interface MigrateCommandOptions {
  /** What to run. */
  action: MigrateAction;
  /** Only this bind (`--bind name`); every bind when absent. */
  bind?: string;
  /** `DATABASE_BINDS` as configured now: bind name → URL. */
  binds: Readonly<Record<string, string>>;
  /** The project root: the Prisma CLI runs there, relative SQLite paths resolve against it. */
  root: string;
  /** Whether a person is at a terminal (stdin and stdout are TTYs). */
  interactive: boolean;
  /** `--force`: consent to destructive actions. */
  force?: boolean;
  /** `--name`: the migration's name (`dev` only). */
  name?: string;
}

/** One Prisma CLI run: `prisma <argv>` in `cwd` with `env` added to the environment. */
export interface PrismaInvocation {
  /** The bind this run migrates. */
  bind: string;
  /** The `fw migrate` action it implements. */
  action: MigrateAction;
  /** Arguments after `prisma`. */
  argv: string[];
  /** Variables added to the inherited environment (`DATABASE_URL_<BIND>`). */
  env: Record<string, string>;
  /** Working directory: the project root. */
  cwd: string;
  /** Whether Prisma may talk to the terminal (prompts); otherwise its output is captured. */
  interactive: boolean;
  /**
   * For `dev` and `deploy` on a SQLite file: the database file {@link runPrisma} copies aside first
   * and restores if Prisma fails, so a failed migration leaves the database untouched.
   */
  snapshot?: string;
  /**
   * For `dev` and `deploy` on PostgreSQL: where {@link runPrisma} trial-runs the pending
   * migrations inside a rolled-back transaction first (see `trialRunPostgres`).
   */
  trial?: PostgresTrial;
  /**
   * For `status`: the bind's URL, whose applied migrations {@link runPrisma} compares with the
   * folders of `prisma/<bind>/migrations` after Prisma's own status (see `missingMigrations`).
   */
  applied?: string;
}

/**
 * The checks of {@link migrateCommandPlan} that need nothing but its options (no disk): a known
 * action, a configured `--bind`, `--name` with `dev` only, and `--force` where an action needs it.
 * Throws a {@link MigrateError}; returns the binds the command is for, in `DATABASE_BINDS` order.
 */
export function checkMigrateCommand(options: Omit<MigrateCommandOptions, 'root'>): string[] {
  const { action, binds, interactive } = options;
  if (!MIGRATE_ACTIONS.includes(action)) {
    throw new MigrateError(`fw migrate: unknown action "${String(action)}" (actions: ${MIGRATE_ACTIONS.join(', ')})`);
  }
  const all = Object.keys(binds);
  if (all.length === 0) throw new MigrateError('DATABASE_BINDS: no binds are configured, so there is nothing to migrate');
  if (options.bind !== undefined && !binds[options.bind]) {
    throw new MigrateError(`--bind ${options.bind}: no such bind in DATABASE_BINDS (binds: ${all.join(', ')})`, { bind: options.bind });
  }
  if (options.name !== undefined && action !== 'dev') {
    throw new MigrateError(`--name applies to "fw migrate dev" only, not "${action}"`);
  }
  const which = options.bind === undefined ? `every bind (${all.join(', ')})` : `bind "${options.bind}"`;
  if (action === 'reset' && !options.force) {
    throw new MigrateError(
      `fw migrate reset drops every table of ${which} and re-applies its migrations; refusing without --force`,
      { bind: options.bind },
    );
  }
  if (action === 'dev' && !interactive && !options.force) {
    throw new MigrateError(
      `fw migrate dev may drop data of ${which} and no terminal is attached to confirm; refusing without --force ` +
        '(to apply committed migrations use "fw migrate deploy")',
      { bind: options.bind },
    );
  }
  return options.bind === undefined ? all : [options.bind];
}

/**
 * The Prisma CLI invocations for `fw migrate <action> [--bind name] [--force] [--name n]`: one per
 * bind (the named one, or every bind in `DATABASE_BINDS` order), and for `dev` and `reset` a
 * `prisma generate` after each (Prisma 7 no longer generates the client while migrating), each with its own
 * `--config prisma/<bind>/prisma.config.ts` and `DATABASE_URL_<BIND>` set from the bind's current
 * URL (scheme normalised, SQLite path made absolute).
 *
 * Destructive actions are refused with a {@link MigrateError} unless `force` is set:
 * - `reset` drops every table of the bind: always needs `force` (an interactive CLI may ask and
 *   then pass it); it runs `prisma migrate reset --force`.
 * - `dev` may drop data (a data-loss change, or a reset on drift). On a terminal Prisma itself
 *   shows the warnings and asks first, so it runs as is; in a non-interactive run it needs
 *   `force`, and even then Prisma still refuses data-loss steps without a terminal.
 *
 * `deploy` runs `migrate deploy`, `status` runs `migrate status`, and `diff` runs `migrate diff`
 * from the bind's database to its schema, as SQL (`--script`).
 *
 * `dev` and `deploy` on a SQLite file carry a `snapshot` so a failed migration is undone; on
 * PostgreSQL they carry a `trial`: pending migrations are first run in a rolled-back transaction.
 */
export function migrateCommandPlan(options: MigrateCommandOptions): PrismaInvocation[] {
  const { action, binds, root, interactive } = options;
  const selected = checkMigrateCommand(options);
  return selected.flatMap((bind) => {
    const config = path.posix.join('prisma', bind, 'prisma.config.ts');
    const argv = ['migrate', action, '--config', config];
    if (action === 'dev' && options.name !== undefined) argv.push('--name', options.name);
    if (action === 'reset') argv.push('--force');
    if (action === 'diff') {
      argv.splice(2, 0, '--from-config-datasource', '--to-schema', path.posix.join('prisma', bind, 'schema.prisma'), '--script');
    }
    const url = prismaUrl(bind, binds[bind]!, root);
    // diff compares the database with the schema only; every other action runs the migrations.
    if (action !== 'diff') checkMigrationHistory(root, bind, bindProvider(bind, binds[bind]!));
    const invocation: PrismaInvocation = { bind, action, argv, env: { [bindEnvVar(bind)]: url }, cwd: root, interactive };
    const file = sqliteFile(url);
    if (action === 'status') invocation.applied = url;
    if (action === 'dev' || action === 'deploy') {
      if (file) invocation.snapshot = file;
      else if (url.startsWith('postgresql:')) invocation.trial = { url, migrations: path.join(root, 'prisma', bind, 'migrations') };
    }
    // Prisma 7's migrate dev and reset no longer generate the client: the app imports it, so do it.
    if (action !== 'dev' && action !== 'reset') return [invocation];
    return [invocation, { bind, action, argv: ['generate', '--config', config], env: invocation.env, cwd: root, interactive: false }];
  });
}
