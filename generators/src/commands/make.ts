import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { negatable, parseCommandArgs, type OptionSpec } from '../cli/args.js';
import { projectCaches } from '../cli/caches.js';
import { CliError } from '../cli/errors.js';
import { INSTALL_HELP, INSTALL_OPTIONS } from '../cli/install.js';
import { isInteractive, type CommandIO } from '../cli/io.js';
import { report } from '../cli/report.js';
import { didYouMean } from '../ocean/suggest.js';
import { packageVersion } from '../package-info.js';
import { runPipeline } from '../pipeline/run.js';
import { findProjectRoot } from '../project.js';
import { loadConfig } from '../project/config.js';
import { isMakeGenerator, makeGeneratorId } from '../project/generators.js';
import { APP_FILE, externalAdditives } from '../project/registrations.js';

/** Usage text of `fw make`. */
export const help = `Usage: fw make <generator> [answers...] [options]
       fw make --list

Runs a generator: fw's own (below) or one of your project's plopfile (generators/plopfile.ts).
Its files go through fw's pipeline like every other command's: planned three ways, printed by
--dry-run, written atomically and recorded in .fw/record.json. Run it again and it merges with
your edits; fw generate leaves what it wrote alone. See: npx fw docs make

Generators:
  route     a named route in fluid/app.ts, or in an Additive's api.ts/app.ts
  page      a template and the route that renders it
  model     a Prisma model in prisma/<bind>/schema.prisma (after fw migrate init)
  mail      HTML and text mail templates and a typed send function on fluid.mail
  guard     a guard in fluid/guards/<name>.ts (@fw/kernel/auth)
  event     a signal and a listener on fluid.events, wired in fluid/app.ts
  test      a vitest test of a named route
  plugin    an app plugin with its own ctx field, registered with fluid.plugin()
  ...       and the generators of generators/plopfile.ts (fw make --list)

Each question of a generator is a flag (--name, --path, ...); the first ones may also be given in
order as arguments. On a terminal fw asks the ones you leave out; without one, a missing answer
is an error naming its flag. "fw make <generator> --help" lists a generator's questions.

Options:
  --list       list the generators, fw's and your project's
  --force      write even when a route or a template clashes, a file is in the way, or you
               deleted a file it writes (it is written again)
  --dry-run    print what would be written (diffs included) and write nothing
  --json       print the result as JSON
${INSTALL_HELP}
  -h, --help   show this help (with a generator: its questions)

Examples:
  npx fw make page about
  npx fw make route user --path /users/:id
  npx fw make model Post --fields "title:String body:String?"
  npx fw make controller invoices        (a generator of generators/plopfile.ts)
  npx fw make test about --dry-run`;

const OWN: OptionSpec = {
  force: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  // A generator may add a package (mail: nodemailer).
  ...INSTALL_OPTIONS,
};

/** `fw make <generator> [answers...] [--flags]` / `fw make --list`. Returns the exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h') {
    io.stdout.write(`${help}\n`);
    return first === undefined ? 1 : 0;
  }
  if (first.startsWith('-') && first !== '--list') throw new CliError(`fw make: give a generator first, e.g. "fw make page about"; got ${first}. Run "fw make --help".`);
  const root = await findProjectRoot(io.cwd);
  const { formatter, cache } = projectCaches(root, packageVersion(), io.env);
  const loaded = await loadConfig(root, cache);
  const app = await readFile(path.join(root, APP_FILE), 'utf8').catch(() => undefined);
  const external = externalAdditives(app, loaded.config.additives);
  const additives = loaded.config.additives.filter((name) => !external.has(name));
  const make = await import('../make/index.js');
  const engine = await make.loadEngine({ root, loaded, additives });

  if (first === '--list') {
    if (rest.length > 0) throw new CliError(`fw make --list: unexpected argument ${rest.join(' ')}`);
    io.stdout.write(make.listGenerators(engine));
    return 0;
  }
  const generator = engine.generators.find((g) => g.name === first);
  if (!generator) {
    const names = engine.generators.map((g) => g.name);
    throw new CliError(`fw make: unknown generator "${first}"${didYouMean(first, names)}; the generators are ${names.join(', ')}. Run "fw make --list".`);
  }
  const command = `fw make ${generator.name}`;
  const spec = { ...make.questionFlags(generator.questions), ...OWN };
  // A generator's flags are its questions: an unknown one is most often a typo of one of them.
  for (const arg of rest.slice(0, rest.includes('--') ? rest.indexOf('--') : rest.length)) {
    const flag = /^--([^=]+)/.exec(arg)?.[1];
    if (flag !== undefined && !(flag in spec)) {
      throw new CliError(`${command}: unknown option --${flag}${didYouMean(`--${flag}`, Object.keys(spec).map((k) => `--${k}`))}. Run "${command} --help" for its questions.`);
    }
  }
  const { values, positionals } = parseCommandArgs(command, rest, spec);
  if (values.help === true) {
    io.stdout.write(await make.generatorHelp(generator));
    return 0;
  }
  const answers = await make.gatherAnswers(io, command, generator.questions, values, positionals);
  const dryRun = values['dry-run'] === true;
  const force = values.force === true;
  const id = makeGeneratorId(generator.name);
  const result = await runPipeline({
    root,
    command,
    dryRun,
    // The run answers for what it renders: files of this generator's other runs stay as they are.
    // --force also writes again a file of this run that you deleted (fw generate never does).
    tree: { formatter, cache, owns: (g) => g === id, leaves: isMakeGenerator, generatorId: id, restoreDeleted: force },
    render: async (tree) => {
      const made = { io, root, tree, formatter, loaded, generator: generator.name, id, force, additives, lines: [] as string[], failed: false };
      await make.runActions(made, generator, answers, engine.plop);
      return made;
    },
  });
  const { failed } = result.rendered;
  const deleted = result.plan.items.filter((item) => item.action === 'skip-deleted' && item.theirs !== undefined).map((item) => item.path);
  const lines = [...result.rendered.lines, ...deleted.map((path) => `${path}: you deleted it, so fw make left it deleted; pass --force to write it again`)];
  const code = await report(io, result, {
    dryRun,
    json: values.json === true,
    install: negatable(command, 'install', values.install === true ? true : undefined, values['no-install'] === true ? true : undefined),
    lines: lines.map((line) => `${line}\n`).join(''),
    failed,
    extra: { generator: generator.name, source: generator.source, answers, notes: lines },
    // After a conflict, the same command merges again (fw generate leaves what fw make wrote alone).
    again: ['fw make', ...argv.filter((a) => a !== '--dry-run' && a !== '--json').map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a))].join(' '),
  });
  if (!dryRun && code === 0 && values.json !== true && isInteractive(io)) await generator.builtin?.after?.(answers, io);
  return code;
}
