/**
 * `Vite` (internal): one Vite surface's index, build mount and namespace. The namespaces of an
 * app — its workspace folders relative to the project root, e.g. `fluid/frontend` and
 * `additives/blog/frontend` — live in one `Set` the catch-all checks the `vite_ns` cookie against.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FluidMiddleware } from '../core/context.js';
import { serveStatic } from '../core/serve-static.js';
import type { StaticMount } from '../core/static.js';
import { contained } from './assets.js';
import { FrontendException } from './errors.js';
import { manipulateIndex } from './html.js';

/** Vite's `build.assetsDir` default: where it writes the files it names by content hash. */
const ASSETS_DIR = 'assets';
/** `Cache-Control` max-age of the hashed assets, in seconds. */
const ONE_YEAR = 31_536_000;

/** What a surface tells its `Vite`. */
export interface ViteSurface {
  /** The project root. */
  projectRoot: string;
  /** The surface folder relative to the project root (`fluid`, `additives/<name>`). */
  rel: string;
  /** The surface URL prefix (`''` for the app, `/<name>` for an Additive). */
  prefix: string;
  /** The UI framework. */
  framework: string;
}

/** Per-surface Vite handling. */
export class Vite {
  /** The workspace folder relative to the project root; also the `vite_ns` cookie value. */
  readonly namespace: string;
  /** The workspace folder. */
  readonly workspace: string;
  /** The build output (`<workspace>/dist`). */
  readonly outDir: string;
  /** Where the build is served (`/frontend`, `/<additive>/frontend`). */
  readonly buildPrefix: string;
  /** The UI framework. */
  readonly framework: string;
  /** The registered namespaces this surface joined (shared by the app's surfaces). */
  readonly namespaces: Set<string>;
  #built: Promise<string> | undefined;

  constructor(surface: ViteSurface, namespaces: Set<string>) {
    this.namespace = `${surface.rel}/frontend`;
    this.workspace = join(surface.projectRoot, surface.rel, 'frontend');
    this.outDir = join(this.workspace, 'dist');
    this.buildPrefix = `${surface.prefix}/frontend`;
    this.framework = surface.framework;
    this.namespaces = namespaces;
    namespaces.add(this.namespace);
  }

  /** The static mount of the build output (revalidated on every use: `public/`'s files keep their names). */
  mount(): StaticMount {
    return { prefix: this.buildPrefix, dir: this.outDir };
  }

  /**
   * Debug's stand-in for {@link mount}: the workspace's `public/` at {@link buildPrefix}, where
   * the build serves it (Vite copies `public/` into `dist/`), so a file of `public/` has one
   * address in both modes (`/frontend/favicon.svg`, which the app's `/favicon.ico` redirect and
   * its template pages name). A file is served only when it is inside `public/` with symbolic
   * links resolved (the build refuses a link there: `checkPublicDirs`); dotfiles never.
   */
  publicMount(): StaticMount {
    const prefix = this.buildPrefix;
    const base = `${prefix}/`;
    const dir = join(this.workspace, 'public');
    const serve = serveStatic(prefix, dir) as FluidMiddleware;
    const middleware: FluidMiddleware = async (ctx, next) => {
      if (!ctx.path.startsWith(base)) return next();
      let rel: string;
      try {
        rel = decodeURIComponent(ctx.path.slice(base.length));
      } catch {
        return serve(ctx, next); // its 400
      }
      if ((await contained(dir, ...rel.split('/'))) === undefined) return next();
      return serve(ctx, next);
    };
    return { prefix, middleware };
  }

  /**
   * The static mount of what Vite's build names by content hash (`assets/index-<hash>.js`):
   * cached for a year as `immutable`. The longer prefix wins over {@link mount}'s.
   */
  assetsMount(): StaticMount {
    const prefix = `${this.buildPrefix}/${ASSETS_DIR}`;
    return { prefix, middleware: serveStatic(prefix, join(this.outDir, ASSETS_DIR), { maxAge: ONE_YEAR, immutable: true }) as FluidMiddleware };
  }

  /** The index page: the workspace source (debug, rewritten for the dev server) or the build. */
  async index(options: { debug: boolean; themeHref?: string | undefined; sources?: string | undefined }): Promise<string> {
    if (options.debug) return this.#read(options);
    // The build does not change while the app runs: read and rewrite it once.
    this.#built ??= this.#read(options).catch((err: unknown) => {
      this.#built = undefined;
      throw err;
    });
    return this.#built;
  }

  /** Throws `FrontendException` naming the file when the build has no index (production boot). */
  async assertBuilt(): Promise<void> {
    await this.index({ debug: false });
    this.#built = undefined;
  }

  async #read(options: { debug: boolean; themeHref?: string | undefined; sources?: string | undefined }): Promise<string> {
    const file = options.debug ? join(this.workspace, 'index.html') : join(this.outDir, 'index.html');
    let html: string;
    try {
      html = await readFile(file, 'utf8');
    } catch (err) {
      const hint = options.debug ? 'the Vite workspace has no index.html' : 'the frontend is not built (run `npm run build --workspaces` or set FW_BUILD_FRONTEND)';
      throw new FrontendException(`Cannot read ${file}: ${hint}`, { cause: err });
    }
    return manipulateIndex(html, {
      debug: options.debug,
      namespace: this.namespace,
      workspace: this.workspace,
      framework: this.framework,
      themeHref: options.themeHref,
      sources: options.sources,
    });
  }
}
