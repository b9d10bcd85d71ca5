/**
 * fw's own action types (docs/make.md): `fw:add` (a file from fw's blueprints, by fw's renderer),
 * `fw:route` (a named route, checked for clashes, by a codemod), `fw:register` (an import and a
 * statement in `fluid/app.ts`) and `fw:dependency` (a package in `package.json`). Each writes into
 * the run's tree like plop's actions do.
 */
import path from 'node:path';
import { applyEdits, modify, parse } from 'jsonc-parser';
import type { CodemodResult, SnippetFormatter } from '../../codemods/index.js';
import { HTTP_METHODS, routerPrefix } from '../../codemods/routes.js';
import { styleOf } from '../../project/config-edit.js';
import { optionalPins } from '../../project/pins.js';
import { blueprintTemplate, prepareBlueprint } from '../../render/blueprint.js';
import type { Answers } from '../api.js';
import { projectPath, type MakeRun } from '../context.js';
import { MakeError } from '../errors.js';
import { camelCase, kebabCase } from '../names.js';
import { addFile } from './plop.js';
import { optionalText, rendered, text, type ActionConfig, type PlopRenderer } from './config.js';

/** The code a codemod inserts, formatted as prettier formats `file` (inside a block when `indent` is given). */
function snippets(run: MakeRun, file: string): SnippetFormatter {
  return async (code, indent) => {
    const wrapped = indent ? `function wrapper() {\n${code}\n}\n` : `${code}\n`;
    const [out] = await run.formatter.format([{ path: file, content: Buffer.from(wrapped, 'utf8') }]);
    const formatted = (out?.toString('utf8') ?? wrapped).replace(/\r\n/g, '\n').trimEnd();
    if (!indent) return formatted;
    const lines = formatted.split('\n').slice(1, -1);
    const unit = /^[ \t]*/.exec(lines[0] ?? '')?.[0] ?? '';
    return lines.map((line) => (line.startsWith(unit) ? indent + line.slice(unit.length) : line)).join('\n');
  };
}

/** Runs a codemod on `file` as the tree holds it, and writes the result back into the tree. */
async function edit(run: MakeRun, file: string, reason: string, codemod: (source: { path: string; text: string }) => Promise<CodemodResult>): Promise<boolean> {
  const current = await run.tree.readText(file);
  if (current === undefined) throw new MakeError(`${file} does not exist`);
  const { CodemodAnchorError } = await import('../../codemods/index.js');
  let result: CodemodResult;
  try {
    result = await codemod({ path: file, text: current });
  } catch (error) {
    if (error instanceof CodemodAnchorError) throw new MakeError(error.message);
    throw error;
  }
  if (result.changed) run.tree.write(file, result.text, { reason });
  return result.changed;
}

/** `fw:add`: a file rendered from `blueprints/make/<blueprint>` with the action's `data`. */
export async function fwAdd(run: MakeRun, answers: Answers, config: ActionConfig, plop: PlopRenderer): Promise<string> {
  const file = projectPath(run, rendered(plop, config, 'path', answers));
  const blueprint = text(config, 'blueprint');
  if (blueprint.split('/').some((segment) => segment === '..' || segment === '') || path.isAbsolute(blueprint)) {
    throw new MakeError(`action "fw:add": "blueprint" must be a path inside blueprints/make/, got "${blueprint}"`);
  }
  const data = typeof config.data === 'object' && config.data !== null ? (config.data as Record<string, unknown>) : answers;
  await prepareBlueprint('make', [blueprint]);
  const content = blueprintTemplate('make', blueprint)(data);
  return addFile(run, file, content, { skipIfExists: config.skipIfExists === true, force: config.force === true });
}

const ROUTE_NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/;
const ROUTE_PATH = /^\/[A-Za-z0-9_\-.~/:*{}]*$/;

/** The Additive an action names, checked against the local Additives of `fw.json`; `undefined` for the app. */
function additiveOf(run: MakeRun, name: string | undefined, type: string): string | undefined {
  if (name === undefined || name === '') return undefined;
  if (!run.additives.includes(name)) {
    const known = run.additives.length > 0 ? run.additives.join(', ') : 'none';
    throw new MakeError(`action "${type}": there is no local Additive "${name}" (fw.json "additives" lists: ${known})`);
  }
  return name;
}

/**
 * `fw:route`: a named route in `fluid/app.ts` or in an Additive's `api.ts`/`app.ts`. Before
 * anything is written, its method, path, name (and the templates it renders) are checked against
 * the app and every Additive (`checkCollisions`); a clash is refused naming both sides unless
 * `--force`. The same route already there is a re-run: nothing changes.
 */
export async function fwRoute(run: MakeRun, answers: Answers, config: ActionConfig, plop: PlopRenderer): Promise<string> {
  const name = rendered(plop, config, 'name', answers);
  if (!ROUTE_NAME.test(name)) throw new MakeError(`action "fw:route": route name "${name}" must start with a letter, then letters, digits, ".", "_" or "-"`);
  const method = (optionalText(config, 'method') ?? 'get').toLowerCase();
  if (!(HTTP_METHODS as readonly string[]).includes(method)) throw new MakeError(`action "fw:route": method "${method}" is not one of ${HTTP_METHODS.join(', ')}`);
  const router = optionalText(config, 'router') ?? 'app';
  if (router !== 'app' && router !== 'api') throw new MakeError(`action "fw:route": router "${router}" is not app or api`);
  const additive = additiveOf(run, config.additive === undefined ? undefined : plop.renderString(String(config.additive), answers), 'fw:route');
  const routePath = config.path === undefined ? `/${kebabCase(name)}` : rendered(plop, config, 'path', answers);
  if (!ROUTE_PATH.test(routePath)) throw new MakeError(`action "fw:route": path "${routePath}" must start with "/" and hold only URL path characters`);
  const fullName = additive ? `${additive}.${name}` : name;
  const prefix = routerPrefix(router, additive);
  const fullPath = prefix === '' ? routePath : routePath === '/' ? `${prefix}/` : `${prefix}${routePath}`;
  const handler = config.handler === undefined ? `() => ({ route: '${fullName}' })` : rendered(plop, config, 'handler', answers);
  const comment = config.comment === undefined ? undefined : rendered(plop, config, 'comment', answers);
  const target = additive ? `additives/${additive}/${router}.ts` : 'fluid/app.ts';
  const shown = `${method.toUpperCase()} ${fullPath} ("${fullName}")`;

  const codemods = await import('../../codemods/index.js');
  const routes = await codemods.projectRoutes(run.tree, run.additives);
  const again = routes.some((r) => r.name === fullName && r.path === fullPath && r.method === method.toUpperCase() && r.where.startsWith(`${target}:`));
  if (!again) {
    const templates = Array.isArray(config.templates) ? config.templates.map((t) => plop.renderString(String(t), answers)) : [];
    const proposal = {
      label: `route ${shown}`,
      routes: [{ method: method.toUpperCase(), path: fullPath, name: fullName, where: target }],
      mounts: [],
      templates: templates.map((t) => ({ name: t, where: `rendered by route "${fullName}"` })),
    };
    const clashes = await codemods.checkCollisions(run.tree, proposal, run.additives, { within: additive });
    if (clashes.length > 0 && config.force !== true) throw new MakeError(codemods.describeCollisions(proposal, clashes));
    for (const clash of clashes) run.lines.push(`--force: written despite: ${clash.message}`);
  }
  const route = { router, method, name, path: routePath, handler, ...(comment === undefined ? {} : { comment }), ...importsOf(config, plop, answers) } as const;
  const format = snippets(run, target);
  const changed = await edit(run, target, `route ${shown} added`, (source) =>
    additive ? codemods.addAdditiveRoute(source, route, camelCase(name), format) : codemods.addAppRoute(source, route, format),
  );
  if (!changed) run.lines.push(`${target} already has route ${shown}: left as it is`);
  return `${target}: ${shown}`;
}

/** The `import` of a `fw:route` (`{ from, names }`), rendered with the answers. */
function importsOf(config: ActionConfig, plop: PlopRenderer, answers: Answers): { imports?: { from: string; names: string[] } } {
  const spec = config.import as { from?: unknown; names?: unknown } | undefined;
  if (spec === undefined) return {};
  const names = Array.isArray(spec.names) ? spec.names.map((n) => plop.renderString(String(n), answers)) : [];
  if (typeof spec.from !== 'string' || names.length === 0 || names.some((n) => !IDENTIFIER.test(n))) {
    throw new MakeError('action "fw:route": "import" must be { from: "<module>", names: ["<identifier>", ...] }');
  }
  return { imports: { from: plop.renderString(spec.from, answers), names } };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `fw:register`: imports names from a module into `fluid/app.ts` and adds a statement after the app is made. */
export async function fwRegister(run: MakeRun, answers: Answers, config: ActionConfig, plop: PlopRenderer): Promise<string> {
  const from = rendered(plop, config, 'from', answers);
  const imports = Array.isArray(config.imports) ? config.imports.map((i) => plop.renderString(String(i), answers)) : [];
  if (imports.length === 0 || imports.some((i) => !IDENTIFIER.test(i))) throw new MakeError('action "fw:register": "imports" must list the identifiers to import');
  const statement = rendered(plop, config, 'statement', answers);
  const { addRegistration } = await import('../../codemods/index.js');
  const file = 'fluid/app.ts';
  const changed = await edit(run, file, `registered ${imports.join(', ')} from ${from}`, (source) =>
    addRegistration(source, { from, imports, statement }, snippets(run, file)),
  );
  if (!changed) run.lines.push(`${file} already has ${statement}: left as it is`);
  return `${file}: ${statement}`;
}

/**
 * `fw:dependency`: adds a package to the app's `package.json` (`dependencies`, or
 * `devDependencies` with `dev: true`) unless it is already there, editing the text in place (key
 * order and formatting kept; the new key goes in alphabetical order, as npm writes it). The
 * version defaults to the exact version fw pins for its optional packages (`project/pins.ts`); the
 * command's report lists the change and the install command (or runs it with `--install`).
 */
export async function fwDependency(run: MakeRun, answers: Answers, config: ActionConfig, plop: PlopRenderer): Promise<string> {
  const name = rendered(plop, config, 'name', answers);
  const file = 'package.json';
  const current = await run.tree.readText(file);
  if (current === undefined) throw new MakeError(`action "fw:dependency": ${file} does not exist`);
  const pkg = (parse(current) ?? {}) as { dependencies?: Record<string, unknown>; devDependencies?: Record<string, unknown> };
  if (pkg.dependencies?.[name] !== undefined || pkg.devDependencies?.[name] !== undefined) return `${file}: already lists ${name}`;
  const version = config.version === undefined ? optionalPins()[name] : rendered(plop, config, 'version', answers);
  if (version === undefined) throw new MakeError(`action "fw:dependency": give a "version" for ${name} (it is not one of @fw/kernel's optional packages)`);
  const section = config.dev === true ? 'devDependencies' : 'dependencies';
  const text = applyEdits(
    current,
    modify(current, [section, name], version, {
      formattingOptions: styleOf(current),
      getInsertionIndex: (properties) => properties.filter((p) => p.localeCompare(name) < 0).length,
    }),
  );
  run.tree.write(file, text, { reason: `${name}@${version} added to ${section}` });
  return `${file}: ${name}@${version}`;
}
