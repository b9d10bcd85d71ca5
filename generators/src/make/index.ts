/**
 * `fw make`: plop generators (fw's built-ins and the project's own plopfile) that write through
 * fw's pipeline. `commands/make.ts` loads this module only when `fw make` runs, so node-plop,
 * tsx, ts-morph and prettier stay off every other command. See docs/make.md.
 */
import type { MakeEngine, MakeGenerator } from './engine.js';
import { describeQuestion } from './questions.js';

export { loadEngine, type MakeEngine, type MakeGenerator } from './engine.js';
export { questionFlags, gatherAnswers, questionsOf, type Question } from './questions.js';
export { runActions } from './runner.js';
export type { MakeRun } from './context.js';
export { MakeError } from './errors.js';

/** `fw make --list`: fw's generators, then the project's. */
export function listGenerators(engine: MakeEngine): string {
  const width = Math.max(...engine.generators.map((g) => g.name.length)) + 2;
  const row = (g: MakeGenerator): string => `  ${g.name.padEnd(width)}${g.description}\n`;
  const own = engine.generators.filter((g) => g.source === 'fw');
  const yours = engine.generators.filter((g) => g.source !== 'fw');
  let out = `fw's generators:\n${own.map(row).join('')}`;
  if (engine.plopfile === undefined) out += '\nYour generators: none (add them in generators/plopfile.ts, see: npx fw docs make)\n';
  else out += `\nYour generators (${engine.plopfile}):\n${yours.length > 0 ? yours.map(row).join('') : '  none: the plopfile registers no generator\n'}`;
  return out;
}

/** `fw make <generator> --help`: its questions as flags, and examples. */
export async function generatorHelp(generator: MakeGenerator): Promise<string> {
  const args = generator.questions.length > 0 ? ` [${generator.questions[0]!.name}]` : '';
  const questions = (await Promise.all(generator.questions.map((q, i) => describeQuestion(q, i)))).join('\n');
  const examples = generator.builtin ? `\n\nExamples:\n${generator.builtin.examples.map((e) => `  ${e}`).join('\n')}` : '';
  const from = generator.source === 'fw' ? "fw's own generator" : `defined in ${generator.source}`;
  return (
    `Usage: fw make ${generator.name}${args} [options]\n\n${generator.description} (${from})\n\n` +
    `Questions (on a terminal fw asks the ones you leave out):\n${questions || '  none'}\n\n` +
    'Options:\n  --force      write even when a route or a template clashes, a file is in the way, or you\n               deleted a file it writes (it is written again)\n' +
    '  --dry-run    print what would be written and write nothing\n  --json       print the result as JSON\n' +
    `  -h, --help   show this help${examples}\n`
  );
}
