import { didYouMean } from '@fw/schemas/suggest';
import { wantsVersion } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { packageVersion } from '../package-info.js';

/** One `fw` command: its words, a one-line summary, and a lazy loader of its module. */
interface CommandEntry {
  words: string[];
  summary: string;
  load: () => Promise<{ run: (argv: string[], io: CommandIO) => Promise<number> }>;
}

/** Every `fw` command. Modules load lazily so each command pays only for what it uses. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    words: ['create', 'project'],
    summary: 'create a new project (same as npx create-fw-app <dir>)',
    load: async () => {
      const module = await import('./create-project.js');
      return { run: (argv, io) => module.run(argv, io, 'fw create project') };
    },
  },
  { words: ['create', 'app'], summary: 'write app_configs/<name>.ini with a fresh SECRET_KEY', load: () => import('./create-app.js') },
  { words: ['create', 'additive'], summary: 'write additives/<name>/ (typed modules) and register it', load: () => import('./create-additive.js') },
  { words: ['create', 'auth'], summary: 'add sign-up, sign-in, verification, reset and 2FA pages (fluid/auth/)', load: () => import('./create-auth.js') },
  { words: ['destroy', 'additive'], summary: 'remove an additive fw generated, and its registration', load: () => import('./destroy-additive.js') },
  { words: ['generate'], summary: 're-render from fw.json, merging with your edits (--dry-run, --json)', load: () => import('./generate.js') },
  { words: ['make'], summary: 'run a generator: route, page, model, mail, guard, event, test, plugin, or your own', load: () => import('./make.js') },
  { words: ['migrate'], summary: 'Prisma migrations per bind: init | dev | deploy | status | reset | diff', load: () => import('./migrate.js') },
  { words: ['run'], summary: 'serve the app (--port, --host, --watch)', load: () => import('./run.js') },
  { words: ['dev'], summary: 'the dev loop: restarts, browser reloads and Vite HMR (fw run --watch)', load: async () => ({ run: (await import('./run.js')).runDev }) },
  { words: ['test'], summary: 'generate missing or stale Prisma clients, then vitest run (npm test)', load: async () => ({ run: (await import('./check.js')).runTest }) },
  {
    words: ['typecheck'],
    summary: 'generate missing or stale Prisma clients, then tsc --noEmit (npm run typecheck)',
    load: async () => ({ run: (await import('./check.js')).runTypecheck }),
  },
  { words: ['build'], summary: 'compile the app to dist/ and build its Vite workspaces, for npm start', load: () => import('./build.js') },
  { words: ['start'], summary: 'run the production build like npm start (--workers, --port, --host)', load: () => import('./start.js') },
  { words: ['docs'], summary: "list fw's documentation, or print a page: fw docs deployment", load: () => import('./docs.js') },
  { words: ['doctor'], summary: 'find (--fix: repair) leftovers of killed runs and record problems in .fw/', load: () => import('./doctor.js') },
  {
    words: ['ocean', 'search'],
    summary: 'search the Additive registry',
    load: async () => ({ run: (await import('../ocean/cli.js')).runOceanSearch }),
  },
  { words: ['ocean', 'install'], summary: 'install Additives from the registry and register them', load: () => import('./ocean-install.js') },
  { words: ['tailwind'], summary: 'run the Tailwind CLI: fw tailwind -- <args>', load: async () => ({ run: (await import('./passthrough.js')).runTailwind }) },
  { words: ['node'], summary: "run a Node/npm command with the frontend's Node: fw node <cmd...>", load: async () => ({ run: (await import('./passthrough.js')).runNode }) },
];

/** The command groups (`fw create ...`) and what each is for. */
const GROUPS: Readonly<Record<string, string>> = {
  create: 'create a project, an app config or an Additive',
  destroy: 'remove what fw generated',
  ocean: 'the Additive registry: search and install',
};

/** Usage text of `fw`. */
export const help = `Usage: fw <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.words.join(' ').padEnd(20)}${c.summary}`).join('\n')}

Options:
  -h, --help          show this help (also: fw <command> --help, fw help <command>)
  -v, --version       print the fw version

Run "fw <command> --help" for the options of a command.`;

/** Usage text of a command group: its subcommands. */
function groupHelp(group: string): string {
  const members = COMMANDS.filter((c) => c.words[0] === group);
  return `Usage: fw ${group} <${members.map((c) => c.words[1]).join('|')}> [options]

${GROUPS[group] ?? ''}

Commands:
${members.map((c) => `  ${c.words.join(' ').padEnd(20)}${c.summary}`).join('\n')}

Run "fw ${group} <command> --help" for the options of a command.`;
}

const isHelp = (word: string | undefined): boolean => word === '--help' || word === '-h';

/** `fw <command> ...`: finds the command by its words and runs it. Returns the exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  if (argv.length === 0 || isHelp(argv[0])) {
    io.stdout.write(`${help}\n`);
    return argv.length === 0 ? 1 : 0;
  }
  if (wantsVersion(argv)) {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  // `fw help <command...>` is `fw <command...> --help`.
  if (argv[0] === 'help') return argv.length === 1 ? run(['--help'], io) : run([...argv.slice(1), '--help'], io);
  const entry = COMMANDS.find((c) => c.words.every((word, i) => argv[i] === word));
  if (!entry) {
    const group = COMMANDS.filter((c) => c.words[0] === argv[0] && c.words.length > 1);
    if (group.length > 0) {
      const sub = argv[1];
      if (sub === undefined || isHelp(sub)) {
        io.stdout.write(`${groupHelp(argv[0]!)}\n`);
        return sub === undefined ? 1 : 0;
      }
      const words = group.map((c) => c.words[1]!);
      throw new CliError(`fw ${argv[0]}: unknown command "${sub}"${didYouMean(sub, words)}; expected one of ${words.join(', ')}. Run "fw ${argv[0]} --help".`);
    }
    const first = argv[0]!;
    const known = [...new Set(COMMANDS.map((c) => c.words[0]!))];
    if (first.startsWith('-')) {
      throw new CliError(`unknown option "${first}"${didYouMean(first, ['--help', '--version'])}; expected a command, --help or --version. Run "fw --help".`);
    }
    // `fw genrate` → generate; `fw project` → create project (a group's word alone).
    const hint = didYouMean(first, [...known, ...COMMANDS.filter((c) => c.words.length > 1).map((c) => c.words.join(' '))]);
    throw new CliError(`unknown command "${first}"${hint}; expected one of ${known.join(', ')}. Run "fw --help".`);
  }
  const module = await entry.load();
  return module.run(argv.slice(entry.words.length), io);
}
