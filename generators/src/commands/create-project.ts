import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { FRONTEND_TYPES, VITE_FRAMEWORKS, validateConfig, validateProjectName, type FrontendConfig } from '@fw/schemas';
import { choiceHint } from '@fw/schemas/suggest';
import { negatable, parseCommandArgs } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import { isInteractive, type CommandIO } from '../cli/io.js';
import { askProjectQuestions, type ProjectPromptAnswers, type ProjectQuestion } from '../cli/prompts.js';
import { report } from '../cli/report.js';
import { canGitInit, gitInit } from '../cli/git.js';
import { confirm, NEXT_STEPS_ENV, packageManager, runCommand, runInstall } from '../cli/install.js';
import { packageVersion } from '../package-info.js';
import type { ApplyResult } from '../pipeline/apply.js';
import { Cache } from '../pipeline/cache.js';
import { formatConfig, verbatim } from '../pipeline/format.js';
import type { Plan } from '../pipeline/plan.js';
import { runPipeline } from '../pipeline/run.js';
import { writeAppConfig } from '../project/app-config.js';
import { CONFIG_FILE, validateConfigText } from '../project/config.js';
import { FRONTEND_GENERATOR_ID, PROJECT_GENERATOR_ID } from '../project/generators.js';
import { renderConfigFile, renderProject } from '../project/render.js';
import { useTemplateStore } from '../render/handlebars.js';
import { checkKernelSpec, defaultSpecs, type DependencySpecs, type SpecOptions } from '../project/specs.js';

/** Usage text of `create-fw-app` / `fw create project`. */
export const help = `Usage: create-fw-app <dir> [options]
       fw create project <dir> [options]

Creates a new fw project in <dir> (its basename is the project name).

Options:
  --surface <type>        frontend of the main app: none | htmx | vite (prompted; default with --yes: htmx)
  --alpine, --no-alpine   add Alpine.js to an htmx surface (prompted; default with --yes: no)
  --framework <name>      vite framework: ${VITE_FRAMEWORKS.join(' | ')} (prompted; implies
                          --surface vite; default with --yes: none, create-vite's vanilla)
  --typescript, --no-typescript
                          TypeScript in the vite workspace (prompted; default with --yes: no)
  -y, --yes               take the defaults for everything not given as a flag
  --dry-run               print what would be created and write nothing
  --json                  print the result as JSON (not with --install, --git or --auth)
  --force                 allow a non-empty <dir>
  --kernel <spec>         npm spec of the @fw/kernel dependency (default: ^<fw version>)
  --local                 developing fw itself: link @fw/kernel and @fw/cli from the fw
                          checkout this command runs from (file: specs)
  --auth, --no-auth       add sign-up, sign-in and two-factor: the app's own fw runs
                          "fw create auth" (npx fw docs auth-scaffold). Implies --install, so it
                          cannot go with --no-install or --json (prompted; default with --yes
                          or without a terminal: no)
  --install, --no-install run the install (npm install) once the files are written (prompted;
                          default with --yes or without a terminal: no)
  --git, --no-git         git init and a first commit (prompted; default with --yes or
                          without a terminal: no)
  -h, --help              show this help
  -v, --version           print the version

Without a terminal, nothing is ever prompted: give every flag, or --yes.
Also writes app_configs/<name>.ini (a fresh SECRET_KEY; DEBUG follows FW_ENV), so "npm install" and
"npm run dev" are all it takes.

Examples:
  npx create-fw-app my-app
  npx create-fw-app my-app --yes
  npx create-fw-app my-app --surface htmx --alpine
  npm create fw-app@latest my-app -- --yes --auth
  fw create project ./sites/shop --surface none --dry-run`;

/** Everything `create project` needs, after argv parsing. */
export interface CreateProjectOptions {
  dir: string;
  surface?: string;
  alpine?: boolean;
  framework?: string;
  typescript?: boolean;
  yes?: boolean;
  dryRun?: boolean;
  force?: boolean;
  kernel?: string;
  local?: boolean;
  /** Add the auth scaffold after the install (see {@link AUTH_COMMAND}); undefined: asked on a terminal, else no. */
  auth?: boolean;
  /** `--install` / `--no-install`; only checked here (`auth` with `install: false` is refused before anything is asked). */
  install?: boolean;
}

/** What `create project` did (or, for a dry run, would do). */
export interface CreateProjectResult {
  root: string;
  name: string;
  frontend: FrontendConfig;
  plan: Plan;
  /** Whether the auth scaffold was asked for (by `--auth` or the prompt): the caller installs and runs {@link AUTH_COMMAND}. */
  auth: boolean;
  /** Undefined for a dry run. */
  committed?: ApplyResult;
}

/** The dependency specs of the generated package.json: `^<version>`, or as `--kernel` / `--local` say. */
export function dependencySpecs(projectRoot: string, options: SpecOptions = {}): DependencySpecs {
  return defaultSpecs(projectRoot, options);
}

async function isNonEmptyDir(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length > 0;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code === 'ENOTDIR') throw new CliError(`${dir} exists and is not a directory.`);
    throw error;
  }
}

/** Throws a CliError naming `flag` when `given` is not one of `allowed`, with a did-you-mean. */
function checkChoice(flag: string, given: string, allowed: readonly string[]): void {
  if (allowed.includes(given)) return;
  throw new CliError(`${flag}: got ${JSON.stringify(given)}; expected one of ${allowed.join(', ')}${choiceHint(given, allowed)}`);
}

/** The questions still unanswered after flags and --yes, and the values they already have. */
function resolveAnswers(options: CreateProjectOptions, interactive: boolean): { known: ProjectPromptAnswers; missing: ProjectQuestion[] } {
  const known: ProjectPromptAnswers = {};
  const missing: ProjectQuestion[] = [];
  // A mistyped choice is named as the flag it came from, before any missing answer.
  if (options.framework !== undefined) checkChoice('--framework', options.framework, VITE_FRAMEWORKS);
  if (options.surface !== undefined) {
    checkChoice('--surface', options.surface, FRONTEND_TYPES);
    if (options.framework !== undefined && options.surface !== 'vite') {
      throw new CliError(`--framework ${options.framework}: a framework is for --surface vite, not --surface ${options.surface}`);
    }
    known.surface = options.surface as ProjectPromptAnswers['surface'];
  } else if (options.framework !== undefined) known.surface = 'vite';
  else if (options.yes) known.surface = 'htmx';
  else missing.push('surface');
  const maybe = (surface: string): boolean => known.surface === surface || (known.surface === undefined && missing.includes('surface'));
  if (options.alpine !== undefined) known.alpine = options.alpine;
  else if (options.yes) known.alpine = false;
  else if (maybe('htmx')) missing.push('alpine');
  if (options.framework !== undefined) known.framework = options.framework;
  else if (options.yes) known.framework = 'none';
  else if (maybe('vite')) missing.push('framework');
  if (options.typescript !== undefined) known.typescript = options.typescript;
  else if (options.yes) known.typescript = false;
  else if (maybe('vite')) missing.push('typescript');
  // Like --install and --git, auth is asked on a terminal only: a script without --auth gets none.
  if (options.auth !== undefined) known.auth = options.auth;
  else if (options.yes || options.install === false || !interactive) known.auth = false;
  else missing.push('auth');
  return { known, missing };
}

const FLAG_OF: Record<ProjectQuestion, string> = {
  surface: '--surface <none|htmx|vite>',
  alpine: '--alpine or --no-alpine',
  framework: `--framework <${VITE_FRAMEWORKS.join('|')}>`,
  typescript: '--typescript or --no-typescript',
  auth: '--auth or --no-auth',
};

/**
 * What `--auth` runs in the new project once its dependencies are installed: the app's own `fw`
 * (its `@fw/cli` devDependency, so the scaffold matches the installed kernel), which installs the
 * packages the scaffold adds. `--no`: never fetch a missing `fw` from the registry.
 */
export const AUTH_COMMAND = ['npx', '--no', 'fw', 'create', 'auth', '--install'] as const;

/** The refusals of flags that cannot go together, before anything is asked or written. */
export function checkFlags(options: CreateProjectOptions & { json?: boolean; git?: boolean }): void {
  if (options.json && options.auth !== true) {
    // Their output (npm's, git's) is not JSON, and a --json run would otherwise skip them silently.
    if (options.install === true) throw new CliError('--install runs npm install, whose output is not JSON: drop --json, or drop --install and run "npm install" in the project afterwards.');
    if (options.git === true) throw new CliError('--git runs git init and a first commit, whose output is not JSON: drop --json, or drop --git and run "git init" in the project afterwards.');
  }
  if (options.auth !== true) return;
  if (options.install === false) {
    throw new CliError('--auth needs the install (the auth scaffold is rendered by the fw the install brings): drop --no-install, or drop --auth and run "npx fw create auth" later.');
  }
  if (options.json) {
    throw new CliError('--auth runs npm install and fw create auth, whose output is not JSON: drop --json, or drop --auth and run "npx fw create auth --json" later.');
  }
}

function frontendBlock(answers: ProjectPromptAnswers): FrontendConfig {
  const surface = answers.surface ?? 'htmx';
  const block: Record<string, unknown> = { type: surface };
  if (surface === 'htmx') block.alpine = answers.alpine ?? false;
  if (surface === 'vite') {
    if (answers.framework !== undefined) block.framework = answers.framework;
    block.typescript = answers.typescript ?? false;
  }
  const [ok, value] = validateConfig(block, 'APP_FRONTEND');
  if (!ok) throw new CliError(value);
  return value;
}

/**
 * Creates a project: resolves the answers (flags, then --yes defaults, then prompts on a TTY;
 * without a TTY missing answers are an error naming the flags), renders `blueprints/project` into
 * the pipeline's tree with `fw.json` and a development `app_configs/<name>.ini`, plans it against
 * an empty record and, unless `dryRun`, applies it. No formatter runs (the blueprints are written
 * prettier-stable), so this path never loads prettier; the format cache is filled as prettier's
 * output under fw's default config, so a `fw generate` right after writes nothing.
 */
export async function createProject(options: CreateProjectOptions, io: CommandIO): Promise<CreateProjectResult> {
  const root = path.resolve(io.cwd, options.dir);
  const name = path.basename(root);
  const [nameOk, nameResult] = validateProjectName(name);
  if (!nameOk) throw new CliError(`${nameResult} (the project name is the basename of <dir> "${options.dir}")`);
  if (!options.force && (await isNonEmptyDir(root))) {
    throw new CliError(`${root} is not empty. Choose a new directory, or pass --force to generate into it anyway.`);
  }

  checkFlags(options);
  const { known, missing } = resolveAnswers(options, isInteractive(io));
  if (missing.length > 0 && !isInteractive(io)) {
    throw new CliError(
      `missing input and no terminal to ask: give ${missing.map((q) => FLAG_OF[q]).join(', ')} ` +
        '(or --yes to take the defaults).',
    );
  }
  // Fail on flags that cannot work before asking anything.
  if (known.surface !== undefined && missing.length === 0) frontendBlock(known);
  const asked = missing.length > 0 ? await askProjectQuestions(io, missing, known, VITE_FRAMEWORKS) : {};
  const frontend = frontendBlock({ ...known, ...asked });

  // The same render as `fw generate`'s, so a generate right after writes nothing.
  const cache = Cache.load(root, formatConfig(root, packageVersion()), io.env.FW_CACHE !== 'off');
  useTemplateStore(cache.templates());
  const configText = await renderConfigFile(name, frontend);
  const { config, defaults } = await validateConfigText(configText, cache);
  const owned = new Set([PROJECT_GENERATOR_ID, FRONTEND_GENERATOR_ID]);
  const result = await runPipeline({
    root,
    command: 'create project',
    dryRun: options.dryRun === true,
    lock: false,
    tree: {
      formatter: verbatim,
      cache,
      owns: (generator) => owned.has(generator),
      overwriteUntracked: options.force === true,
      generatorId: 'create project',
    },
    render: async (tree) => {
      await renderProject(tree, { config, defaults, specs: dependencySpecs(root, { kernel: options.kernel, local: options.local }) });
      tree.write(CONFIG_FILE, configText, { record: false, first: true, reason: 'the project config: yours, not in the record' });
      writeAppConfig(tree, name, { ifMissing: true });
    },
  });
  const auth = known.auth ?? asked.auth ?? false;
  return { root, name, frontend, auth, plan: result.plan, ...(result.applied ? { committed: result.applied } : {}) };
}

/** `create-fw-app <dir>` / `fw create project <dir>`: parses argv, runs, prints. Returns the exit code. */
export async function run(argv: string[], io: CommandIO, command = 'create-fw-app'): Promise<number> {
  const { values, positionals } = parseCommandArgs(command, argv, {
    surface: { type: 'string' },
    alpine: { type: 'boolean' },
    'no-alpine': { type: 'boolean' },
    framework: { type: 'string' },
    typescript: { type: 'boolean' },
    'no-typescript': { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
    force: { type: 'boolean' },
    kernel: { type: 'string' },
    local: { type: 'boolean' },
    install: { type: 'boolean' },
    'no-install': { type: 'boolean' },
    auth: { type: 'boolean' },
    'no-auth': { type: 'boolean' },
    git: { type: 'boolean' },
    'no-git': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  });
  if (values.help) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  if (values.version) {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const [dir, ...extra] = positionals;
  if (dir === undefined) throw new CliError(`${command}: missing <dir>, the directory to create. Run "${command} --help" for usage.`);
  if (extra.length > 0) throw new CliError(`${command}: unexpected argument${extra.length > 1 ? 's' : ''} ${extra.join(' ')}; give one <dir>.`);
  const options: CreateProjectOptions = { dir, yes: values.yes, dryRun: values['dry-run'], force: values.force, local: values.local };
  if (values.surface !== undefined) options.surface = values.surface;
  if (values.framework !== undefined) options.framework = values.framework;
  if (values.kernel !== undefined) options.kernel = checkKernelSpec(values.kernel);
  const alpine = negatable(command, 'alpine', values.alpine, values['no-alpine']);
  if (alpine !== undefined) options.alpine = alpine;
  const typescript = negatable(command, 'typescript', values.typescript, values['no-typescript']);
  if (typescript !== undefined) options.typescript = typescript;
  const auth = negatable(command, 'auth', values.auth, values['no-auth']);
  if (auth !== undefined) options.auth = auth;
  const install = negatable(command, 'install', values.install, values['no-install']);
  if (install !== undefined) options.install = install;
  const git = negatable(command, 'git', values.git, values['no-git']);
  checkFlags({ ...options, json: values.json === true, ...(git !== undefined ? { git } : {}) });

  const result = await createProject(options, io);
  if (options.dryRun || values.json) {
    const code = await report(io, { plan: result.plan, rendered: undefined, ...(result.committed ? { applied: result.committed } : {}) }, { dryRun: options.dryRun === true, json: values.json === true, diffs: false, dependencies: false });
    const install = `${packageManager(result.root, io.env)} install`;
    if (result.auth) {
      io.stdout.write(`With --auth it would then run "${install}", "${AUTH_COMMAND.join(' ')}" and, for each database bind, "npx --no prisma generate --config prisma/<bind>/prisma.config.ts" there.\n`);
    }
    else if (options.install === true) io.stdout.write(`With --install it would then run "${install}" there.\n`);
    if (git === true) io.stdout.write('With --git it would then run "git init" and make a first commit there.\n');
    return code;
  }
  const created = result.committed?.created.length ?? 0;
  const updated = result.committed?.updated.length ?? 0;
  const relative = path.relative(io.cwd, result.root) || '.';
  io.stdout.write(`Created ${result.name} in ${result.root} (${created} files created, ${updated} updated).\n`);
  const installed = result.auth ? await addAuth(io, result.root) : await offerInstall(io, result.root, values.yes === true, install);
  await offerGit(io, result.root, values.yes === true, git);
  const steps = [`cd ${relative}`, ...(installed ? [] : [`${packageManager(result.root, io.env)} install`])];
  if (result.auth) steps.push('npx fw migrate dev --name auth   # the User and AuthToken tables', 'npm run dev                      # then open /sign-up');
  else steps.push('npm run dev');
  io.stdout.write(`\nNext steps:\n${steps.map((s) => `  ${s}\n`).join('')}`);
  return 0;
}

/** `prisma generate` of each bind the project has a Prisma environment for (`prisma/<bind>/prisma.config.ts`). */
async function generateCommands(root: string): Promise<string[][]> {
  const binds = (await readdir(path.join(root, 'prisma'), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  return binds
    .filter((bind) => existsSync(path.join(root, 'prisma', bind, 'prisma.config.ts')))
    .sort()
    .map((bind) => ['npx', '--no', 'prisma', 'generate', '--config', `prisma/${bind}/prisma.config.ts`]);
}

/**
 * `--auth`: the install, then the project's own `fw create auth` (which installs what the scaffold
 * adds), then `prisma generate` (Prisma 7's `migrate dev` no longer does), so `tsc` and the app
 * find the client. A failure leaves the project written and names what to run again.
 */
async function addAuth(io: CommandIO, root: string): Promise<true> {
  const install = `${packageManager(root, io.env)} install`;
  const auth = AUTH_COMMAND.join(' ');
  io.stdout.write(`\n--auth: installing the dependencies (${install}), then adding the auth scaffold with the project's fw (${auth}).\n`);
  await runCommand(root, install.split(' '), io, `the project is written: fix the cause, then run "${install}" and "${auth}" in ${root}.`);
  // Its "Next:" line is left out: the one "Next steps" block is printed at the end, with `cd <dir>`.
  await runCommand(root, AUTH_COMMAND, { ...io, env: { ...io.env, [NEXT_STEPS_ENV]: 'off' } }, `the project is written and installed: fix the cause, then run "${auth}" in ${root}.`);
  for (const generate of await generateCommands(root)) {
    const command = generate.join(' ');
    await runCommand(root, generate, io, `the auth scaffold is written: fix the cause, then run "${command}" in ${root}.`);
  }
  io.stdout.write('Added the auth scaffold: sign-up, sign-in, email verification, password reset, two-factor (fluid/auth/, fluid/templates/auth/).\n');
  return true;
}

/** `--install`, or on a terminal (without `--yes`) the question; runs the install. Returns whether it ran. */
async function offerInstall(io: CommandIO, root: string, yes: boolean, flag: boolean | undefined): Promise<boolean> {
  const command = `${packageManager(root, io.env)} install`;
  const install = flag ?? (!yes && isInteractive(io) ? await confirm(io, `Install the dependencies now (${command})?`, true) : false);
  if (!install) return false;
  await runInstall(root, command, io);
  return true;
}

/** `--git`, or on a terminal (without `--yes`, outside a repository) the question; runs `git init` and a first commit. */
async function offerGit(io: CommandIO, root: string, yes: boolean, flag: boolean | undefined): Promise<void> {
  const git = flag ?? (!yes && isInteractive(io) && canGitInit(root).ok ? await confirm(io, 'Initialize a git repository?', true) : false);
  if (git) io.stdout.write(gitInit(root, 'Initial commit from create-fw-app'));
}
