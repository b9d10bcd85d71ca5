import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';

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
  { words: ['build'], summary: 'compile the app to dist/ and build its Vite workspaces, for npm start', load: () => import('./build.js') },
  { words: ['start'], summary: 'run the production build like npm start (--workers, --port, --host)', load: () => import('./start.js') },
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

/** Usage text of `fw`. */
export const help = `Usage: fw <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.words.join(' ').padEnd(20)}${c.summary}`).join('\n')}

Run "fw <command> --help" for the options of a command.`;

/** `fw <command> ...`: finds the command by its words and runs it. Returns the exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.stdout.write(`${help}\n`);
    return argv.length === 0 ? 1 : 0;
  }
  const entry = COMMANDS.find((c) => c.words.every((word, i) => argv[i] === word));
  if (!entry) {
    const group = COMMANDS.filter((c) => c.words[0] === argv[0] && c.words.length > 1);
    if (group.length > 0) {
      const got = argv[1] === undefined ? 'nothing' : `"${argv[1]}"`;
      throw new CliError(`fw ${argv[0]}: got ${got}; expected one of ${group.map((c) => c.words[1]).join(', ')}. Run "fw --help".`);
    }
    throw new CliError(`unknown command "${argv[0]}"; expected one of ${[...new Set(COMMANDS.map((c) => c.words[0]))].join(', ')}. Run "fw --help".`);
  }
  const module = await entry.load();
  return module.run(argv.slice(entry.words.length), io);
}
