/**
 * `@fw/cli/make`: the types of a project's own `fw make` generators (`generators/plopfile.ts`,
 * docs/make.md). A plopfile is an ordinary plop plopfile; fw runs it through its pipeline, so
 * every file it adds or edits is planned three ways, printed by `--dry-run`, written atomically
 * and recorded in `.fw/record.json`.
 *
 * ```ts
 * import type { NodePlopAPI } from '@fw/cli/make';
 *
 * export default function (plop: NodePlopAPI): void {
 *   plop.setGenerator('controller', {
 *     description: 'a controller module and its route',
 *     prompts: [{ type: 'input', name: 'name', message: 'Controller name' }],
 *     actions: [
 *       { type: 'add', path: 'fluid/controllers/{{kebabCase name}}.ts', templateFile: 'templates/controller.ts.hbs' },
 *       { type: 'fw:route', name: '{{camelCase name}}', path: '/{{kebabCase name}}', handler: '(ctx) => ({ ok: true })' },
 *     ],
 *   });
 * }
 * ```
 */
import type {
  AddActionConfig,
  AddManyActionConfig,
  AppendActionConfig,
  ModifyActionConfig,
  NodePlopAPI as PlopAPI,
  PlopGenerator,
  PromptQuestion,
} from 'node-plop';
import type { ProjectConfig } from '@fw/schemas';

export type { PromptQuestion, CustomActionConfig, PlopGenerator } from 'node-plop';

/** The answers of a generator's questions, by question name. */
export type Answers = Record<string, unknown>;

/** A route of the app or of an Additive, as `fw make` reads it from their modules. */
export interface MakeRoute {
  /** `GET`, `POST`, ..., `ALL`, or `WS`. */
  method: string;
  /** The full path as served (`/api/blog/status`). */
  path: string;
  /** The full route name (`blog.status`). */
  name: string;
  /** Where it is declared: `fluid/app.ts:12`. */
  where: string;
}

/**
 * What a generator sees of the project while `fw make` runs it: the second argument of an
 * `actions` function, and `plop.fw` in a custom action. Reads see what the run has done so far;
 * writes go into the run's tree (nothing touches the disk until the plan is applied).
 */
export interface MakeApi {
  /** The absolute project root. */
  readonly root: string;
  /** The validated `fw.json`. */
  readonly config: ProjectConfig;
  /** Whether `--force` was given. */
  readonly force: boolean;
  /** What a file will hold after the run (pending changes included); `undefined` when it will not exist. */
  read(file: string): Promise<string | undefined>;
  /** Whether a file will exist after the run. */
  exists(file: string): Promise<boolean>;
  /**
   * Whether you deleted a file fw generated (`.fw/record.json` has it, the project does not):
   * rendering it again leaves it deleted, unless `--force`.
   */
  deleted(file: string): Promise<boolean>;
  /** The route table of `fluid/app.ts` and of every local Additive. */
  routes(): Promise<MakeRoute[]>;
  /**
   * A key of the app's runtime config as the app reads it on this machine (the project's own
   * `@fw/kernel` loader: `fw.json` "config", `app_configs/<app>.ini`, `.env`, the environment,
   * `X_FILE`), and where its value was set (`app_configs/my-app.ini:4`, `environment variable
   * MAIL_DEFAULT_SENDER`, `fw.json:5:5`); `undefined` when the app gets no value for it. Throws
   * when the app's config does not load (or `@fw/kernel` is not installed), saying why.
   */
  setting(key: string): Promise<{ value: unknown; from: string } | undefined>;
  /**
   * A file this generator produces: merged three ways with your edits and recorded (what `add`
   * does). A file another fw generator writes (`fluid/app.ts`, ...) is refused: `write` it instead.
   */
  render(file: string, content: string): Promise<void>;
  /** The final bytes of a file (what `modify` does): compared with the disk, not recorded as generated. */
  write(file: string, content: string): Promise<void>;
  /** A line `fw make` prints after its summary. */
  note(line: string): void;
}

/** Adds a named route to `fluid/app.ts` (or an Additive's `api.ts`/`app.ts`), checked for clashes first. */
export interface FwRouteAction {
  type: 'fw:route';
  /** The route's name (an Additive's gets its `<additive>.` prefix). Handlebars, like plop's paths. */
  name: string;
  /** The path on its router (`/users/:id`); default `/<name>`. */
  path?: string;
  /** Default `get`. */
  method?: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'all';
  /** Default `app`. */
  router?: 'app' | 'api';
  /** The Additive the route belongs to; default: the app. */
  additive?: string;
  /** The handler, a TypeScript expression; default: one answering `{ route: <name> }` as JSON. */
  handler?: string;
  /** A comment line put above the route. */
  comment?: string;
  /** Names the handler uses, imported from a module (relative to the file the route goes in). */
  import?: { from: string; names: string[] };
  /** Templates the route renders (names as `ctx.render` takes them), checked for clashes too. */
  templates?: string[];
  force?: boolean;
  skip?: (answers: Answers) => unknown;
  abortOnFail?: boolean;
}

/** Imports from a module into `fluid/app.ts` and adds a statement after the app is made (`fluid.plugin(x())`). */
export interface FwRegisterAction {
  type: 'fw:register';
  /** The module, relative to `fluid/app.ts` (`./plugins/audit.js`). */
  from: string;
  /** The names imported from it. */
  imports: string[];
  /** The statement, written with `fluid` for the app (renamed if your app variable is named otherwise). */
  statement: string;
  skip?: (answers: Answers) => unknown;
  abortOnFail?: boolean;
}

/** Adds a package to the app's `package.json` (in place, keeping its formatting) unless it is there. */
export interface FwDependencyAction {
  type: 'fw:dependency';
  name: string;
  /** Default: the exact version fw pins for it (`@fw/kernel`'s optional packages: nodemailer, ioredis, ...). */
  version?: string;
  /** Add it to `devDependencies`. */
  dev?: boolean;
  skip?: (answers: Answers) => unknown;
  abortOnFail?: boolean;
}

/** A file rendered from fw's own blueprints (`blueprints/make/`), by fw's renderer. */
export interface FwAddAction {
  type: 'fw:add';
  path: string;
  /** The template, relative to `blueprints/make/` (`page/page.html.hbs`). */
  blueprint: string;
  data?: Record<string, unknown>;
  skipIfExists?: boolean;
  force?: boolean;
  skip?: (answers: Answers) => unknown;
  abortOnFail?: boolean;
}

/** fw's own action types. */
export type FwAction = FwRouteAction | FwRegisterAction | FwDependencyAction | FwAddAction;

/** plop's action types (`add`, `addMany`, `modify`, `append`, which write through fw's pipeline too) and fw's. */
export type MakeAction =
  | string
  | AddActionConfig
  | AddManyActionConfig
  | ModifyActionConfig
  | AppendActionConfig
  | FwAction
  | MakeCustomAction;

/** An action as a function (plop's `CustomActionFunction`), given `plop.fw` to write through fw's pipeline. */
export type MakeCustomAction = (
  answers: Answers,
  config: { type: string } & Record<string, unknown>,
  plop: PlopAPI & { readonly fw: MakeApi },
) => string | Promise<string>;

/** A generator: its questions and its actions (a list, or a function of the answers and the {@link MakeApi}). */
export interface MakeGeneratorConfig {
  description: string;
  prompts: PromptQuestion[];
  actions: MakeAction[] | ((answers: Answers, fw: MakeApi) => MakeAction[] | Promise<MakeAction[]>);
}

/** The plop API a plopfile gets, with fw's action types in `setGenerator`. */
export interface NodePlopAPI extends Omit<PlopAPI, 'setGenerator'> {
  setGenerator(name: string, config: MakeGeneratorConfig): PlopGenerator;
}
