import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { FRONTEND_TYPES, VITE_FRAMEWORKS, parseProjectConfig, validateConfig, validateProjectName, type FrontendConfig } from '@fw/schemas';
import { negatable, parseCommandArgs } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import { isInteractive, type CommandIO } from '../cli/io.js';
import { commit, type CommitResult } from '../engine/commit.js';
import { FileTree } from '../engine/file-tree.js';
import { plan, type Plan } from '../engine/plan.js';
import { formatPlan } from '../engine/print.js';
import { createPlop } from '../plop/index.js';
import { PROJECT_GENERATOR, registerProjectGenerator, type ProjectPromptAnswers, type ProjectQuestion } from '../plop/project.js';
import { PROJECT_GENERATOR_ID } from '../project/generators.js';
import { defaultSpecs, type DependencySpecs, type SpecOptions } from '../project/specs.js';

/** Usage text of `create-fw-app` / `fw create project`. */
export const help = `Usage: create-fw-app <dir> [options]
       fw create project <dir> [options]

Creates a new fw project in <dir> (its basename is the project name).

Options:
  --surface <type>        frontend of the main app: none | htmx | vite (prompted; default with --yes: htmx)
  --alpine, --no-alpine   add Alpine.js to an htmx surface (prompted; default with --yes: no)
  --framework <name>      vite framework: ${VITE_FRAMEWORKS.join(' | ')} (prompted; no default)
  --typescript, --no-typescript
                          TypeScript in the vite workspace (prompted; default with --yes: no)
  -y, --yes               take the defaults for everything not given as a flag
  --dry-run               print what would be created and write nothing
  --force                 allow a non-empty <dir>
  --kernel <spec>         npm spec of the @fw/kernel dependency (default: ^<fw version>)
  --local                 developing fw itself: link @fw/kernel and @fw/cli from the fw
                          checkout this command runs from (file: specs)
  -h, --help              show this help

Without a terminal, nothing is ever prompted: give every flag, or --yes.

Examples:
  npx create-fw-app my-app
  npx create-fw-app my-app --yes
  npx create-fw-app my-app --surface htmx --alpine
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
}

/** What `create project` did (or, for a dry run, would do). */
export interface CreateProjectResult {
  root: string;
  name: string;
  frontend: FrontendConfig;
  plan: Plan;
  /** Undefined for a dry run. */
  committed?: CommitResult;
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

/** The questions still unanswered after flags and --yes, and the values they already have. */
function resolveAnswers(options: CreateProjectOptions): { known: ProjectPromptAnswers; missing: ProjectQuestion[] } {
  const known: ProjectPromptAnswers = {};
  const missing: ProjectQuestion[] = [];
  if (options.surface !== undefined) {
    if (!(FRONTEND_TYPES as readonly string[]).includes(options.surface)) {
      throw new CliError(`--surface: got ${JSON.stringify(options.surface)}; expected one of ${FRONTEND_TYPES.join(', ')}`);
    }
    known.surface = options.surface as ProjectPromptAnswers['surface'];
  } else if (options.yes) known.surface = 'htmx';
  else missing.push('surface');
  const maybe = (surface: string): boolean => known.surface === surface || (known.surface === undefined && missing.includes('surface'));
  if (options.alpine !== undefined) known.alpine = options.alpine;
  else if (options.yes) known.alpine = false;
  else if (maybe('htmx')) missing.push('alpine');
  if (options.framework !== undefined) known.framework = options.framework;
  else if (maybe('vite')) missing.push('framework');
  if (options.typescript !== undefined) known.typescript = options.typescript;
  else if (options.yes) known.typescript = false;
  else if (maybe('vite')) missing.push('typescript');
  return { known, missing };
}

const FLAG_OF: Record<ProjectQuestion, string> = {
  surface: '--surface <none|htmx|vite>',
  alpine: '--alpine or --no-alpine',
  framework: `--framework <${VITE_FRAMEWORKS.join('|')}>`,
  typescript: '--typescript or --no-typescript',
};

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
 * without a TTY missing answers are an error naming the flags), renders `blueprints/project`
 * through node-plop into one FileTree, plans it against disk and, unless `dryRun`, commits it.
 */
export async function createProject(options: CreateProjectOptions, io: CommandIO): Promise<CreateProjectResult> {
  const root = path.resolve(io.cwd, options.dir);
  const name = path.basename(root);
  const [nameOk, nameResult] = validateProjectName(name);
  if (!nameOk) throw new CliError(`${nameResult} (the project name is the basename of <dir> "${options.dir}")`);
  if (!options.force && (await isNonEmptyDir(root))) {
    throw new CliError(`${root} is not empty. Choose a new directory, or pass --force to generate into it anyway.`);
  }

  const { known, missing } = resolveAnswers(options);
  if (missing.length > 0 && !isInteractive(io)) {
    throw new CliError(
      `missing input and no terminal to ask: give ${missing.map((q) => FLAG_OF[q]).join(', ')} ` +
        '(or --yes to take the defaults).',
    );
  }
  // Fail on flags that cannot work before asking anything (and before loading node-plop).
  if (known.surface !== undefined && missing.length === 0) frontendBlock(known);

  let asked: ProjectPromptAnswers = {};
  if (missing.length > 0) {
    const plop = await createPlop(root);
    registerProjectGenerator(plop, new FileTree(), missing, known, VITE_FRAMEWORKS);
    asked = (await plop.getGenerator(PROJECT_GENERATOR).runPrompts()) as ProjectPromptAnswers;
  }
  const answers: ProjectPromptAnswers = { ...known, ...asked };
  const frontend = frontendBlock(answers);

  // The same composed render as `fw generate`, so a generate right after writes nothing.
  const { renderConfigFile, renderProject } = await import('../project/render.js');
  const configText = await renderConfigFile(name, frontend);
  const config = parseProjectConfig(JSON.parse(configText), 'fw.json');
  const tree = await renderProject({ config, specs: dependencySpecs(root, { kernel: options.kernel, local: options.local }) });
  tree.write('fw.json', configText, { generator: PROJECT_GENERATOR_ID, record: false });
  const projectPlan = await plan(tree, root);
  if (options.dryRun) return { root, name, frontend, plan: projectPlan };
  return { root, name, frontend, plan: projectPlan, committed: await commit(projectPlan) };
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
    force: { type: 'boolean' },
    kernel: { type: 'string' },
    local: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  const [dir, ...extra] = positionals;
  if (dir === undefined) throw new CliError(`${command}: missing <dir>, the directory to create. Run "${command} --help" for usage.`);
  if (extra.length > 0) throw new CliError(`${command}: unexpected argument${extra.length > 1 ? 's' : ''} ${extra.join(' ')}; give one <dir>.`);
  const options: CreateProjectOptions = { dir, yes: values.yes, dryRun: values['dry-run'], force: values.force, local: values.local };
  if (values.surface !== undefined) options.surface = values.surface;
  if (values.framework !== undefined) options.framework = values.framework;
  if (values.kernel !== undefined) options.kernel = values.kernel;
  const alpine = negatable(command, 'alpine', values.alpine, values['no-alpine']);
  if (alpine !== undefined) options.alpine = alpine;
  const typescript = negatable(command, 'typescript', values.typescript, values['no-typescript']);
  if (typescript !== undefined) options.typescript = typescript;

  const result = await createProject(options, io);
  if (options.dryRun) {
    io.stdout.write(formatPlan(result.plan));
    io.stdout.write('Dry run: nothing was written.\n');
    return 0;
  }
  const created = result.committed?.created.length ?? 0;
  const updated = result.committed?.updated.length ?? 0;
  const relative = path.relative(io.cwd, result.root) || '.';
  io.stdout.write(
    `Created ${result.name} in ${result.root} (${created} files created, ${updated} updated).\n\n` +
      `Next steps:\n  cd ${relative}\n  npm install\n  npx fw create app ${result.name}\n  npm run dev\n`,
  );
  return 0;
}
