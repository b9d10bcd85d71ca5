import { applyEdits, modify, parse } from 'jsonc-parser';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { INSTALL_HELP, INSTALL_OPTIONS, NEXT_STEPS_ENV } from '../cli/install.js';
import { negatable, parseOptionsOnly } from '../cli/args.js';
import { report } from '../cli/report.js';
import { packageVersion } from '../package-info.js';
import { projectCaches } from '../cli/caches.js';
import { runPipeline } from '../pipeline/run.js';
import type { Tree } from '../pipeline/tree.js';
import { findProjectRoot } from '../project.js';
import { isMakeGenerator } from '../project/generators.js';
import { styleOf } from '../project/config-edit.js';
import { registrationLines, renderWholeProject, writeWarnings } from '../project/regenerate.js';

/** Usage text of `fw create auth`. */
export const help = `Usage: fw create auth [options]

Adds sign-up, sign-in, email verification, password reset, TOTP two-factor (AUTH_TWO_FACTOR,
default on) and remember-me to the project: the User and AuthToken models in the Prisma schema
of SECURITY_MODELS_DB_BIND, fluid/db.ts, fluid/auth/ (users, pages, mail) and
fluid/templates/auth/, installed by one line in fluid/app.ts. The files are yours; \`fw generate\`
merges later changes with your edits. Sets BASE_URL and MAIL_DEFAULT_SENDER in fw.json when they
are unset (mail links are built from BASE_URL, never from a request's Host header).

Then:
  npm install                             the scaffold's dependencies (added to package.json)
  npx fw migrate dev --name auth          create the tables
  npx fw dev                              open /sign-up

Options:
  --dry-run    print the plan and diffs; write nothing
  --json       print the result as JSON
${INSTALL_HELP}
  -h, --help   show this help

See: npx fw docs auth-scaffold`;

/** `fw.json` with BASE_URL and MAIL_DEFAULT_SENDER set when they are missing (comments and layout kept). */
function withMailDefaults(text: string, name: string): string {
  const json = parse(text) as { config?: Record<string, unknown> } | undefined;
  const wanted: Record<string, string> = { BASE_URL: 'http://127.0.0.1:8000', MAIL_DEFAULT_SENDER: `${name} <no-reply@localhost>` };
  let out = text;
  const format = { formattingOptions: styleOf(text) };
  for (const [key, value] of Object.entries(wanted)) {
    if (json?.config?.[key] === undefined) out = applyEdits(out, modify(out, ['config', key], value, format));
  }
  return out;
}

async function editConfig(tree: Tree): Promise<void> {
  const text = await tree.readText('fw.json');
  if (text === undefined) throw new CliError('fw create auth: fw.json is missing');
  const name = (parse(text) as { name?: unknown } | undefined)?.name;
  const next = withMailDefaults(text, typeof name === 'string' ? name : 'app');
  if (next !== text) tree.write('fw.json', next, { record: false, first: true, reason: 'BASE_URL and MAIL_DEFAULT_SENDER for the auth mail' });
}

/** `fw create auth [--dry-run] [--json] [--install|--no-install]`: the whole project rendered with the auth scaffold, through the pipeline. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const command = 'fw create auth';
  const values = parseOptionsOnly(command, argv, {
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
    ...INSTALL_OPTIONS,
  }, { text: help, write: (text) => io.stdout.write(text) });
  if (!values) return 0;
  const root = await findProjectRoot(io.cwd);
  const dryRun = values['dry-run'] === true;
  const install = negatable(command, 'install', values.install, values['no-install']);
  const { formatter, cache } = projectCaches(root, packageVersion(), io.env);
  const result = await runPipeline({
    root,
    command,
    dryRun,
    // The files `fw make` wrote are yours once written, as under fw generate: left as they are.
    tree: { formatter, cache, owns: 'all', leaves: isMakeGenerator, generatorId: command },
    render: async (tree) => {
      await editConfig(tree);
      try {
        return await renderWholeProject(tree, { authScaffold: true, cache, env: io.env });
      } catch (error) {
        if (error instanceof CliError) throw error;
        throw new CliError(error instanceof Error ? error.message : String(error));
      }
    },
  });
  const json = values.json === true;
  const code = await report(io, result, { dryRun, json, lines: registrationLines(result.rendered), failed: result.rendered.note !== undefined, install });
  writeWarnings(io, result.rendered);
  // create-fw-app --auth runs this command and then prints the project's one "Next steps" block.
  if (!json && !dryRun && code === 0 && io.env[NEXT_STEPS_ENV] !== 'off') {
    io.stdout.write(`\nNext: ${install ? '' : 'npm install && '}npx fw migrate dev --name auth && npx fw dev, then open /sign-up (npx fw docs auth-scaffold)\n`);
  }
  return code;
}
