/**
 * The auth scaffold of `fw create auth`: the files of `blueprints/auth/scaffold/` (users over
 * Prisma, the auth pages and mail templates, `fluid/db.ts`), the security models of the Prisma
 * schema, the app's dependencies, and one line in `fluid/app.ts` that installs it. Rendered into
 * the run's tree like every generated file (generator `auth-scaffold`), so `fw generate` merges a
 * later render (e.g. `AUTH_TWO_FACTOR` turned off) with the user's edits three ways.
 */
import path from 'node:path';
import { blueprintDir } from '../package-info.js';
import { blueprintTemplate, loadBlueprint, prepareBlueprint, renderBlueprint } from '../render/blueprint.js';
import type { Tree } from '../pipeline/tree.js';

/** Generator id recorded for the scaffold's files; a record holding one means the project has the scaffold. */
export const AUTH_SCAFFOLD_GENERATOR_ID = 'auth-scaffold';

/** The app's runtime dependencies the scaffold adds to `package.json` (versions pinned by fw). */
export const AUTH_SCAFFOLD_DEPENDENCIES = ['@node-rs/argon2', 'otplib', 'qrcode', 'nodemailer'] as const;

/** Its development dependencies. */
export const AUTH_SCAFFOLD_DEV_DEPENDENCIES = ['@types/qrcode'] as const;

/** The driver adapter packages of a bind's provider (docs/databases.md). */
export function adapterPackages(provider: 'sqlite' | 'postgresql'): string[] {
  return provider === 'sqlite' ? ['@prisma/adapter-libsql', '@libsql/client'] : ['@prisma/adapter-pg', 'pg'];
}

/** Input of {@link renderAuthScaffold}. */
export interface AuthScaffoldOptions {
  /** The project's name (greets in mail, names the TOTP issuer). */
  projectName: string;
  /** `SECURITY_MODELS_DB_BIND`: the bind holding the users. */
  bind: string;
  /** `AUTH_TWO_FACTOR`: render the TOTP pages. */
  twoFactor: boolean;
  /** The main app has a Vite surface: also render the JSON API and its typed client. */
  api: boolean;
  /** The `href` of the main app's icon, which the auth layout links (`appIconHref` of `additive/render.ts`). */
  icon: string;
  /**
   * The main app has the stylesheet of the project blueprint (`fluid/static/app.css`): the auth
   * layout links it. Otherwise (an app whose Vite surface serves `/`) the scaffold writes its own,
   * `fluid/static/auth.css`, and the layout links that one.
   */
  stylesheet: boolean;
  /** Folder of the `auth` blueprint (default: `blueprints/auth` of this package). */
  blueprint?: string;
}

const APP_IMPORT = "import { installAuthScaffold } from './auth/index.js';";
const APP_CALL = 'installAuthScaffold(fluid);';

/** Renders the scaffold's files into `tree` (see the module comment). */
export async function renderAuthScaffold(tree: Tree, options: AuthScaffoldOptions): Promise<void> {
  const source = options.blueprint ?? blueprintDir('auth');
  const data = { projectName: options.projectName, bind: options.bind, twoFactor: options.twoFactor, api: options.api, icon: options.icon, stylesheet: options.stylesheet };
  const parts = ['common', ...(options.twoFactor ? ['two-factor'] : []), ...(options.api ? ['api'] : []), ...(options.stylesheet ? [] : ['style'])];
  for (const part of parts) {
    const blueprint = await loadBlueprint(`auth-${part}`, path.join(source, 'scaffold', part));
    renderBlueprint(blueprint, data, tree, AUTH_SCAFFOLD_GENERATOR_ID);
  }
  // The layout is a template only for the app's icon and stylesheet: like the other auth templates
  // it is written as is, never formatted (prettier would split its one-line {{#if}} blocks).
  const layout = tree.rendered(AUTH_LAYOUT);
  if (layout) tree.render(AUTH_LAYOUT, layout, { generator: AUTH_SCAFFOLD_GENERATOR_ID, format: false });
}

/** The layout of the auth pages (`blueprints/auth/scaffold/common/fluid/templates/auth/layout.html.hbs`). */
const AUTH_LAYOUT = 'fluid/templates/auth/layout.html';

/** The Prisma models of the scaffold (User, AuthToken) for the schema of `bind`. */
export async function authModels(bind: string, blueprint = blueprintDir('auth')): Promise<string> {
  await prepareBlueprint('auth', ['prisma/models.prisma.hbs'], blueprint);
  return blueprintTemplate('auth', 'prisma/models.prisma.hbs', blueprint)({ bind });
}

/**
 * `fluid/app.ts` (as the run will leave it) with the scaffold installed: the import after the
 * last import, the call after the line creating `fluid`. Unchanged when it already installs it,
 * so a user who moved the call keeps it where they put it. Undefined when there is no such line.
 */
export function installInApp(text: string): string | undefined {
  if (text.includes('installAuthScaffold(')) return text;
  const lines = text.split('\n');
  const create = lines.findIndex((line) => /^export const fluid = new Fluid\(/.test(line));
  if (create === -1) return undefined;
  let end = create;
  while (end < lines.length && !lines[end]!.trimEnd().endsWith(';')) end++;
  lines.splice(end + 1, 0, '', '// Users, sessions and the auth pages (fluid/auth/, from `fw create auth`).', APP_CALL);
  const lastImport = lines.reduce((last, line, i) => (line.startsWith('import ') ? i : last), -1);
  lines.splice(lastImport + 1, 0, APP_IMPORT);
  return lines.join('\n');
}
