/**
 * `Additive`: a module of an fw app with its own routes (`api` at `/api/<name>`, `app` at
 * `/<name>`, `ws` at `/ws/<name>`), request hooks, templates and static folder.
 */
import { join } from 'node:path';
import { RESERVED_ADDITIVE_NAMES as SCHEMA_RESERVED, validateAdditiveName, type AdditiveManifest } from '@fw/schemas';
import { readAdditiveManifest } from './config/index.js';
import { FrameworkException } from './errors.js';
import type { FluidApp } from './context.js';
import { toDir } from './paths.js';
import { HttpRouter, type AfterValueHook, type BeforeRequestHook } from './router.js';
import { WsRouter } from './ws-router.js';

/** Sets up a plugin's fields on every new Additive; see {@link extendAdditives}. */
export type AdditiveInitializer = (additive: Additive) => void;

const initializers: AdditiveInitializer[] = [];

/**
 * Runs `init` in the constructor of every Additive made from now on, so a plugin can give each
 * Additive its own fields (declared by merging into `Additive`), the way the frontend plugin gives
 * it `additive.frontend` from its manifest. An initializer that throws makes `new Additive()`
 * throw. Registering the same function twice is a no-op.
 */
export function extendAdditives(init: AdditiveInitializer): void {
  if (!initializers.includes(init)) initializers.push(init);
}

/** Names an Additive may not take: they are URL prefixes of the kernel or of the app. */
export const RESERVED_ADDITIVE_NAMES: ReadonlySet<string> = new Set(SCHEMA_RESERVED);

/** Runs when the Additive is registered, before its routes are mounted. */
export type BeforeEnableHook = (fluid: FluidApp) => unknown;

/** Options of `new Additive()`. */
export interface AdditiveOptions {
  /** The Additive's folder (path or `file:` URL; a file URL such as `import.meta.url` means its folder). */
  root: string | URL;
}

/** A module of the app. Register it with `fluid.additive(additive)`. */
export class Additive {
  /** The Additive's name: its URL prefix and its route-name prefix (`<name>.<route>`). */
  readonly name: string;
  /** The Additive's folder. */
  readonly root: string;
  /** Its templates folder (`<root>/templates`). */
  readonly templatesDir: string;
  /** Its static folder (`<root>/static`), served at `/<name>/static`. */
  readonly staticDir: string;
  /**
   * Its `manifest.json`, validated whole when the Additive is made (a bad one throws a
   * `ConfigError` naming the file, line and key); `undefined` when the folder has none.
   */
  readonly manifest: AdditiveManifest | undefined;
  /** HTTP routes at `/api/<name>`. */
  readonly api: HttpRouter;
  /** HTTP routes at `/<name>`. */
  readonly app: HttpRouter;
  /** Websocket routes at `/ws/<name>`. */
  readonly ws: WsRouter;
  readonly #before: BeforeRequestHook[] = [];
  readonly #after: AfterValueHook[] = [];
  readonly #enable: BeforeEnableHook[] = [];

  constructor(name: string, options: AdditiveOptions) {
    const [ok, reason] = validateAdditiveName(name);
    if (!ok) throw new FrameworkException(`new Additive(): ${reason}`);
    if (!options || options.root === undefined) throw new FrameworkException(`Additive '${name}': options.root is required`);
    this.name = name;
    this.root = toDir(options.root, `Additive '${name}'`);
    this.templatesDir = join(this.root, 'templates');
    this.staticDir = join(this.root, 'static');
    this.manifest = readAdditiveManifest(this.root, name);
    const hooks = { before: this.#before, after: this.#after };
    this.api = new HttpRouter({ prefix: `/api/${name}`, mount: `${name}.api`, namePrefix: `${name}.`, hooks });
    this.app = new HttpRouter({ prefix: `/${name}`, mount: `${name}.app`, namePrefix: `${name}.`, hooks });
    this.ws = new WsRouter({ prefix: `/ws/${name}`, mount: `${name}.ws`, namePrefix: `${name}.` });
    for (const init of initializers) init(this);
  }

  /** Runs before each of its `api` and `app` routes; returning a value answers with it. */
  beforeRequest(hook: BeforeRequestHook): this {
    this.#before.push(hook);
    return this;
  }

  /**
   * Runs after each of its `api` and `app` routes with what the handler returned; a returned value
   * other than `undefined` replaces it.
   */
  afterRequest(hook: AfterValueHook): this {
    this.#after.push(hook);
    return this;
  }

  /** Runs when the app enables the Additive, before its routes are mounted. */
  beforeEnable(hook: BeforeEnableHook): this {
    this.#enable.push(hook);
    return this;
  }

  /** The `beforeEnable` hooks, in registration order (called by `Fluid`). */
  get enableHooks(): readonly BeforeEnableHook[] {
    return this.#enable;
  }
}
