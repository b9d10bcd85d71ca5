import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { didYouMean } from '@fw/schemas/suggest';
import { parseCommandArgs } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { docsDir } from '../package-info.js';

/** Usage text of `fw docs`. */
export const help = `Usage: fw docs [topic] [options]

fw's documentation ships inside @fw/cli (node_modules/@fw/cli/docs/, one Markdown page per
topic). Without a topic, lists the topics and where the pages are; with one, prints its page.

Options:
  --path       print the page's file path instead of the page (to open it in an editor)
  -h, --help   show this help

Examples:
  npx fw docs
  npx fw docs deployment
  code "$(npx fw docs tailwind --path)"`;

/** The topics: one per `docs/<topic>.md`, sorted. */
export function docTopics(dir: string = docsDir()): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -'.md'.length))
    .sort();
}

/** The page's title: its first `# ` heading, without the `#`. */
function title(file: string): string {
  const heading = readFileSync(file, 'utf8')
    .split('\n')
    .find((line) => line.startsWith('# '));
  return heading === undefined ? '' : heading.slice(2).trim();
}

/** `fw docs`. Returns the exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('fw docs', argv, {
    help: { type: 'boolean', short: 'h' },
    path: { type: 'boolean' },
  });
  if (values.help) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  const dir = docsDir();
  const topics = docTopics(dir);
  if (topics.length === 0) throw new CliError(`fw docs: no pages in ${dir}; reinstall @fw/cli (npm install).`);
  if (positionals.length > 1) throw new CliError(`fw docs: one topic at a time (got ${positionals.join(' ')}). Run "fw docs" for the list.`);
  const [topic] = positionals;
  if (topic === undefined) {
    if (values.path) {
      io.stdout.write(`${dir}\n`);
      return 0;
    }
    const width = Math.max(...topics.map((t) => t.length)) + 2;
    io.stdout.write(`fw's documentation (${dir}):\n\n`);
    for (const t of topics) io.stdout.write(`  ${t.padEnd(width)}${title(path.join(dir, `${t}.md`))}\n`);
    io.stdout.write('\nRead one with: npx fw docs <topic> (add --path for its file)\n');
    return 0;
  }
  const name = topic.replace(/\.md$/, '');
  if (!topics.includes(name)) throw new CliError(`fw docs: no page "${topic}"${didYouMean(name, topics)}; run "fw docs" for the list.`);
  const file = path.join(dir, `${name}.md`);
  io.stdout.write(values.path ? `${file}\n` : readFileSync(file, 'utf8'));
  return 0;
}
