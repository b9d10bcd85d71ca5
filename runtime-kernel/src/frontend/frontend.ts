/**
 * `Frontend`: the frontend of one surface — the main app (`coverApp`, from `APP_FRONTEND`,
 * rooted at `<project>/fluid`) or one Additive (`coverAdditive`, from its manifest's `frontend`
 * key, rooted at the Additive's folder).
 *
 * `Frontend.prepare(fluid)` runs when the app mixes (the frontend plugin's `build`): it compiles
 * Tailwind (`FW_TAILWIND`), and when a Vite surface exists wires either the dev-server proxy
 * (debug) or the check/build/mount flow (production), the index routes and the catch-all. It
 * answers the pieces the plugin puts in the app's stack (`FrontendWiring`).
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { join, relative } from 'node:path';
import { validateConfig, type FrontendConfig, type FrontendType } from '@fw/schemas';
import type { Additive } from '../core/additive.js';
import { loadConfigDetails, readAdditiveManifest } from '../core/config/index.js';
import type { FluidContext, FluidMiddleware } from '../core/context.js';
import { HttpError } from '../core/errors.js';
import type { FluidCore } from '../core/fluid.js';
import { Markup } from '../core/markup.js';
import { KERNEL_STATIC_DIR, type StaticMount } from '../core/static.js';
import { assetCatch, VITE_NS_COOKIE } from './assets.js';
import { startDevServer, type DevServer } from './dev.js';
import { FrontendException } from './errors.js';
import { frontendInclude } from './include.js';
import { nonceScripts } from '../security/state.js';
import { checkAndBuild } from './prod.js';
import { Sources } from './sources.js';
import { generateTailwindAsset, rawStylesheetName, TAILWIND_OUTPUT } from './tailwind.js';
import { Vite } from './vite.js';

/** What `Frontend.prepare` hands to the frontend plugin for the app's Koa stack. */
export interface FrontendWiring {
  /** Static mounts of the build output (production), or of the workspaces' `public/` at the same addresses (debug). */
  readonly mounts: readonly StaticMount[];
  /** Middleware before the routers (the `/vite-dev` proxy in debug). */
  readonly before: readonly FluidMiddleware[];
  /** Middleware after the routers (the catch-all, registered last). */
  readonly after: readonly FluidMiddleware[];
  /** Websocket upgrades it takes (`/vite-dev` HMR); answers false for others. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Ends the proxied HMR sockets (before the app's server stops: they would hold it open). */
  stop(): void;
  /** Stops what it started (the dev server). */
  close(): Promise<void>;
}

/** Options of `new Frontend()`: passing either covers the surface at once. */
export interface FrontendOptions {
  /** The app whose surface (`APP_FRONTEND`, `fluid/frontend`) this frontend serves. */
  fluid?: FluidCore;
  /** The Additive whose surface (its manifest's `frontend`) this frontend serves. */
  additive?: Additive;
}

const NO_WIRING: FrontendWiring = { mounts: [], before: [], after: [], upgrade: () => false, stop: () => undefined, close: async () => undefined };

/** A surface's compile with what it wrote ({@link Frontend.generateTailwind} answers the files only); set by the class. */
let compileSurface: (frontend: Frontend, vite: boolean, staticDir: boolean) => Promise<TailwindOutput[]>;

/** The frontend of one surface. */
export class Frontend {
  /** The surface type: `none`, `htmx` or `vite`. */
  type: FrontendType = 'none';
  /** Whether an htmx surface also loads Alpine. */
  alpine = false;
  /** The surface URL prefix: `''` for the app, `/<name>` for an Additive. */
  prefix = '';
  /** The surface folder relative to the project root (`fluid`, `additives/<name>`); `''` until covered. */
  rel = '';
  /** The Vite framework (Vite surfaces only). */
  framework: string | undefined;
  /** Whether the Vite workspace is TypeScript. */
  typescript = false;
  /** Whether the built index is served at the surface root. */
  registerIndex = false;
  /** Head snippets of every Vite index (the app's registry; shared by its Additives). */
  readonly sources: Sources;

  #covered = false;
  #root = '';
  #fluid: FluidCore | undefined;
  #vite: Vite | undefined;
  #dev: DevServer | undefined;

  constructor(options: FrontendOptions = {}, sources: Sources = new Sources()) {
    this.sources = sources;
    if (options.fluid) this.coverApp(options.fluid);
    else if (options.additive) this.coverAdditive(options.additive);
  }

  /** True when the surface has a Vite workspace. */
  get hasVite(): boolean {
    return this.type === 'vite';
  }

  /** URL of the surface's compiled `tailwind.css` when the file exists, else `undefined`. */
  get tailwind(): string | undefined {
    if (!this.#covered) return undefined;
    return existsSync(join(this.#root, 'static', TAILWIND_OUTPUT)) ? `${this.prefix}/static/${TAILWIND_OUTPUT}` : undefined;
  }

  /** The surface folder (absolute); `''` until covered. */
  get root(): string {
    return this.#root;
  }

  /** Configures from the app's `APP_FRONTEND`, rooted at `<project>/fluid`. */
  coverApp(fluid: FluidCore): this {
    this.#cover(fluid.config.APP_FRONTEND, join(fluid.root, 'fluid'), '', 'fluid');
    this.#fluid = fluid;
    return this;
  }

  /** Configures from the `frontend` key of the Additive's `manifest.json` (none when absent). */
  coverAdditive(additive: Additive): this {
    this.#checkUncovered();
    // The kernel validated the whole manifest when the Additive was made (core/config).
    const [ok, value] = validateConfig(additive.manifest?.frontend ?? { type: 'none' }, 'frontend');
    if (!ok) throw new FrontendException(`${join(additive.root, 'manifest.json')}: ${value}`);
    this.#cover(value, additive.root, `/${additive.name}`, `additives/${additive.name}`);
    return this;
  }

  /** The markup of the `{{frontend}}` helper: htmx/Alpine tags (with `nonce`, the CSP nonce) plus the Tailwind link. */
  include(nonce?: string): Markup {
    return frontendInclude({ frontend: { type: this.type, alpine: this.alpine }, tailwindHref: this.tailwind }, nonce);
  }

  /**
   * The served Vite index (rewritten for hot reload in debug) as `Markup`. With a request
   * context, it also sets the `vite_ns` cookie the catch-all needs. Throws `HttpError(404)` when
   * the surface has no Vite frontend.
   */
  async vite(ctx?: FluidContext): Promise<Markup> {
    if (!this.hasVite) throw new HttpError(404);
    const vite = this.#vite;
    const fluid = this.#fluid;
    if (!vite || !fluid) throw new FrontendException(`Frontend '${this.rel}': the app has not started yet (the index is served once it has mixed)`);
    const html = await vite.index({ debug: fluid.config.DEBUG, themeHref: this.tailwind, sources: fluid.frontend.sources.rendered.toString() });
    ctx?.cookies.set(VITE_NS_COOKIE, vite.namespace, { httpOnly: true, sameSite: 'lax', path: '/', overwrite: true });
    return new Markup(ctx ? nonceScripts(html, ctx) : html); // the index is the developer's: its scripts may carry the CSP nonce
  }

  /**
   * Compiles the surface's raw stylesheet (`static/tailwind_raw.css`, or
   * `tailwind_no_themes.css` with `FW_THEMES` off) into the Vite source tree
   * (`frontend/src/tailwind.css`) and/or the static folder (`static/tailwind.css`). Answers the
   * files compiled (an output already up to date is not rewritten); none when the surface has no
   * raw stylesheet.
   */
  async generateTailwind(frontend: boolean, staticDir: boolean): Promise<string[]> {
    return (await compileSurface(this, frontend, staticDir)).map((o) => o.file);
  }

  static {
    compileSurface = async (f, frontend, staticDir) => {
      if (!f.#covered) throw new FrontendException('generateTailwind(): the Frontend is not covered yet');
      return generateSurfaceTailwind({
        surface: f.#root,
        project: f.#fluid?.root ?? f.#root,
        themes: f.#fluid?.config.FW_THEMES ?? true,
        staticDir,
        frontend: frontend && f.hasVite,
      });
    };
  }

  /** Restarts the shared dev server (debug, app surface only); the proxy keeps working. */
  async restartDevServer(): Promise<void> {
    if (!this.#dev) throw new FrontendException('No Vite dev server is running (debug mode with a Vite surface only)');
    await this.#dev.restart();
  }

  /**
   * Wires the app's frontends (called by the frontend plugin while the app mixes): Tailwind at boot
   * (`FW_TAILWIND`); with a Vite surface, the dev proxy (debug) or check/build/mount
   * (production), the index routes and the catch-all.
   */
  static async prepare(fluid: FluidCore): Promise<FrontendWiring> {
    const app = fluid.frontend;
    const surfaces: Frontend[] = [app];
    for (const additive of fluid.additives.values()) {
      additive.frontend.#fluid = fluid;
      surfaces.push(additive.frontend);
    }
    if (fluid.config.FW_TAILWIND) await generateTailwindCss(fluid);
    app.sources.freeze();
    const viteSurfaces = surfaces.filter((s) => s.hasVite);
    if (viteSurfaces.length === 0) return NO_WIRING;

    const namespaces = new Set<string>();
    for (const s of viteSurfaces) s.#vite = new Vite({ projectRoot: fluid.root, rel: s.rel, prefix: s.prefix, framework: s.framework ?? 'none' }, namespaces);
    const debug = fluid.config.DEBUG;
    const mounts: StaticMount[] = [];
    const before: FluidMiddleware[] = [];
    let dev: DevServer | undefined;
    if (debug) {
      dev = await startDevServer(fluid.root, fluid.logger, [...namespaces]);
      app.#dev = dev;
      before.push(dev.proxy);
      for (const s of viteSurfaces) mounts.push(s.#vite!.publicMount()); // public/ where the build serves it
    } else {
      await checkAndBuild(fluid.root, { check: fluid.config.FW_CHECK_FRONTEND, build: fluid.config.FW_BUILD_FRONTEND }, fluid.logger, [...namespaces]);
      for (const s of viteSurfaces) {
        mounts.push(s.#vite!.assetsMount(), s.#vite!.mount());
        if (s.registerIndex) await s.#vite!.assertBuilt(); // a missing build stops the boot, not a later request
      }
    }
    for (const s of viteSurfaces) {
      if (!s.registerIndex) continue;
      const router = s.prefix === '' ? fluid.app : fluid.additives.get(s.prefix.slice(1))!.app;
      router.get('frontend.index', '/', (ctx) => s.vite(ctx));
    }
    const server = dev;
    return {
      mounts,
      before,
      after: [assetCatch(fluid.root, namespaces, { production: !debug })],
      upgrade: (req, socket, head) => server?.upgrade(req, socket, head) ?? false,
      stop: () => server?.endSockets(),
      close: async () => {
        app.#dev = undefined;
        await server?.close();
      },
    };
  }

  #checkUncovered(): void {
    if (this.#covered) throw new FrontendException('Frontend has already been configured.');
  }

  #cover(block: FrontendConfig, root: string, prefix: string, rel: string): void {
    this.#checkUncovered();
    this.#covered = true;
    this.#root = root;
    this.prefix = prefix;
    this.rel = rel;
    this.type = block.type;
    if (block.type === 'htmx') this.alpine = block.alpine;
    if (block.type === 'vite') {
      this.framework = block.framework;
      this.typescript = block.typescript;
      this.registerIndex = block.register_index;
    }
  }
}

/** One surface's Tailwind compile: what boot (`Frontend.generateTailwind`) and `fw build` both run. */
interface SurfaceTailwind {
  /** The surface folder (`<project>/fluid`, `<project>/additives/<name>`). */
  surface: string;
  /** The project root: the Tailwind packages resolve from it. */
  project: string;
  /** `FW_THEMES`: which raw stylesheet is read. */
  themes: boolean;
  /** Write `static/tailwind.css`. */
  staticDir: boolean;
  /** Write `frontend/src/tailwind.css` (Vite surfaces). */
  frontend: boolean;
}

/** One compiled stylesheet, and whether it was written (false: it was up to date). */
interface TailwindOutput {
  file: string;
  written: boolean;
}

async function generateSurfaceTailwind(s: SurfaceTailwind): Promise<TailwindOutput[]> {
  const raw = join(s.surface, 'static', rawStylesheetName(s.themes));
  if (!existsSync(raw)) return [];
  const outputs: string[] = [];
  if (s.staticDir) outputs.push(join(s.surface, 'static', TAILWIND_OUTPUT));
  if (s.frontend) outputs.push(join(s.surface, 'frontend', 'src', TAILWIND_OUTPUT));
  const compiled: TailwindOutput[] = [];
  for (const file of outputs) compiled.push({ file, written: await generateTailwindAsset(raw, file, s.surface, { root: s.project }) });
  return compiled;
}

/**
 * Compiles every raw stylesheet of the app, its Additives and the kernel (the reference's
 * `generate_tailwind_css`, the `FW_TAILWIND` startup step). Answers the files compiled (a file
 * whose content was already the compiled one is not written). Logs `tailwind compiled` with the
 * files it wrote (and those already up to date), or `tailwind up to date` when it wrote none.
 */
export async function generateTailwindCss(fluid: FluidCore): Promise<string[]> {
  const compiled: TailwindOutput[] = [];
  const surfaces = [fluid.frontend, ...[...fluid.additives.values()].map((a) => a.frontend)];
  for (const s of surfaces) compiled.push(...(await compileSurface(s, true, true)));
  // The kernel package ships no raw stylesheet (test/release/packed.test.ts), so a production
  // boot never writes into node_modules/@fw/kernel; a kernel checkout may hold one.
  const kernelRaw = join(KERNEL_STATIC_DIR, rawStylesheetName(fluid.config.FW_THEMES));
  if (existsSync(kernelRaw)) {
    const file = join(KERNEL_STATIC_DIR, TAILWIND_OUTPUT);
    compiled.push({ file, written: await generateTailwindAsset(kernelRaw, file, KERNEL_STATIC_DIR, { root: fluid.root }) });
  }
  if (compiled.length === 0) {
    // Setting the key alone compiles nothing: say which file would make it do something.
    const raw = rawStylesheetName(fluid.config.FW_THEMES);
    fluid.logger.warn(
      `FW_TAILWIND is on but no surface has a raw stylesheet, so nothing was compiled: create fluid/static/${raw} (or additives/<name>/static/${raw}) holding @import "tailwindcss";`,
    );
  } else {
    const files = (written: boolean): string[] => compiled.filter((o) => o.written === written).map((o) => relative(fluid.root, o.file));
    const [written, unchanged] = [files(true), files(false)];
    if (written.length === 0) fluid.logger.info('tailwind up to date', { files: unchanged });
    else fluid.logger.info('tailwind compiled', unchanged.length === 0 ? { files: written } : { files: written, unchanged });
  }
  return compiled.map((o) => o.file);
}

/** Options of `generateProjectTailwind`. */
export interface ProjectTailwindOptions {
  /** Which `app_configs/<app>.ini` to read (default as `new Fluid()`: `FW_APP`, then the project name). */
  app?: string;
  /** The environment the config is read with (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * What `fw build` runs before the app is deployed: with `FW_TAILWIND` on in the project's config
 * (fw.json, the app's ini, the environment), compiles the raw stylesheet of the app
 * (`fluid/`) and of every Additive folder (`additives/<name>/`) exactly as the boot does, so a
 * production boot finds them compiled and writes nothing (its files may be read-only). Answers
 * the compiled files, project-relative; none with `FW_TAILWIND` off. Needs no `SECRET_KEY`.
 */
export async function generateProjectTailwind(root: string, options: ProjectTailwindOptions = {}): Promise<string[]> {
  const loaded = loadConfigDetails({ root, app: options.app, env: options.env, requireSecretKey: false });
  const { config } = loaded;
  if (!config.FW_TAILWIND) return [];
  const surfaces: SurfaceTailwind[] = [];
  const base = { project: loaded.root, themes: config.FW_THEMES, staticDir: true };
  surfaces.push({ ...base, surface: join(loaded.root, 'fluid'), frontend: config.APP_FRONTEND.type === 'vite' });
  const additives = join(loaded.root, 'additives');
  const names = existsSync(additives) ? (await readdir(additives, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name) : [];
  for (const name of names.sort()) {
    const folder = join(additives, name);
    const manifest = readAdditiveManifest(folder, name);
    surfaces.push({ ...base, surface: folder, frontend: manifest?.frontend?.type === 'vite' });
  }
  const compiled: TailwindOutput[] = [];
  for (const s of surfaces) compiled.push(...(await generateSurfaceTailwind(s)));
  return compiled.map((o) => relative(loaded.root, o.file));
}
