import { parseOptionsOnly } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { examine, repair, type Finding } from '../pipeline/doctor.js';
import { RecordError } from '../pipeline/record.js';
import { findProjectRoot } from '../project.js';

/** Usage text of `fw doctor`. */
export const help = `Usage: fw doctor [options]

Checks what fw keeps in the project (.fw/) and what a killed or interrupted fw command can leave:
  - temp files (*.fw-tmp-*) in .fw/ or next to generated files
  - stored copies in .fw/store that no record entry refers to
  - record entries whose stored copy is missing or corrupt, or whose path names no project file
  - a lock (.fw/lock) left by a process that is gone, an interrupted run's marker
  - a missing .fw/.gitattributes (it keeps git from changing the stored copies)
fw generate already cleans temp files and orphan copies on its next run; doctor finds them
without running a generator.

Options:
  --fix        repair what can be repaired, holding the project lock (a stale lock is taken
               over): remove leftovers, restore a stored copy from its file when the file still
               has exactly those bytes, drop bad record entries, write .fw/.gitattributes
  --json       print the findings as JSON
  -h, --help   show this help

Exit status: 0 when nothing is wrong (after --fix: nothing remains), 1 otherwise.

Examples:
  npx fw doctor
  npx fw doctor --fix`;

function lines(findings: readonly Finding[]): string {
  const width = Math.max(0, ...findings.map((f) => f.kind.length));
  return findings.map((f) => `  ${f.kind.padEnd(width)}  ${f.path}: ${f.detail}\n`).join('');
}

/** `fw doctor [--fix] [--json]`. Returns the exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const command = 'fw doctor';
  const values = parseOptionsOnly(command, argv, {
    fix: { type: 'boolean' },
    json: { type: 'boolean' },
  }, { text: help, write: (text) => io.stdout.write(text) });
  if (!values) return 0;
  const root = await findProjectRoot(io.cwd);
  let found: Finding[];
  let remaining: Finding[];
  try {
    if (values.fix) ({ found, remaining } = await repair(root, `${command} --fix`));
    else remaining = found = await examine(root);
  } catch (error) {
    if (error instanceof RecordError) throw new CliError(`${error.message}; fw doctor cannot repair an unreadable record: restore .fw/record.json from git`);
    throw error;
  }
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ root, fixed: values.fix === true, found, remaining }, null, 2)}\n`);
    return remaining.length > 0 ? 1 : 0;
  }
  let out = '';
  if (found.length === 0) out += `fw doctor: nothing wrong in ${root}\n`;
  else if (!values.fix) {
    out += `fw doctor: ${found.length} problem(s) in ${root}\n${lines(found)}`;
    if (found.some((f) => f.fixable)) out += 'Run "fw doctor --fix" to repair them.\n';
  } else {
    out += `fw doctor --fix: repaired ${found.length - remaining.length} of ${found.length} problem(s) in ${root}\n${lines(found)}`;
    if (remaining.length > 0) out += `Still wrong:\n${lines(remaining)}`;
  }
  io.stdout.write(out);
  return remaining.length > 0 ? 1 : 0;
}
