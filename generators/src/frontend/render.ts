/**
 * Renders one Vite surface's workspace (`fluid/frontend/` for the app, `additives/<name>/frontend/`
 * for an Additive) from its frontend block.
 *
 * The files come from the `create-vite` package's `template-<framework>[-ts]` folder, read from
 * disk (no network), and are rewritten for the fw layout: the workspace `package.json` gets its
 * npm workspace name and a `check` script (the type-check that create-vite runs before
 * `vite build`), and `vite.config` gets `base` (where fw serves the build: `/frontend/` or
 * `/<additive>/frontend/`) and the build `outDir` (`dist`, which fw mounts). Binary files
 * (images) are returned as bytes.
 *
 * Qwik is refused with `FrontendGenerationError`: create-vite's qwik template needs
 * `@builder.io/qwik`, whose published releases require Vite below 8, and fw runs Vite 8.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { blueprintTemplate } from '../render/blueprint.js';

/** The frameworks a Vite surface may use (same list as `@fw/schemas` `VITE_FRAMEWORKS`). */
export const FRAMEWORKS = ['lit', 'none', 'preact', 'qwik', 'react', 'solid', 'svelte', 'vue'] as const;
/** One of {@link FRAMEWORKS}. */
export type Framework = (typeof FRAMEWORKS)[number];

/** A generated file: text, or bytes for binary assets. */
export type FileContent = string | Uint8Array;

/** A Vite surface to render. */
export interface ViteSurfaceSpec {
  /** The project's name (`fw.json` `name`): prefixes the npm workspace name. */
  project: string;
  /** The Additive's name, or undefined for the main app. */
  additive?: string | undefined;
  /** The framework. */
  framework: Framework;
  /** TypeScript template. */
  typescript: boolean;
  /** Folder holding create-vite's `template-*` folders (default: the installed create-vite). */
  templates?: string;
}

/** A surface cannot be generated; the message says which and why. */
export class FrontendGenerationError extends Error {
  override name = 'FrontendGenerationError';
}

/** Why qwik is not generated (shown at generation time). */
export const QWIK_LIMIT =
  'The qwik framework cannot be generated: create-vite\'s qwik template needs @builder.io/qwik, whose published releases ' +
  '(1.20.1 and earlier) declare a peer dependency on Vite below 8, while fw surfaces run on Vite 8. ' +
  'Choose another framework (lit, none, preact, react, solid, svelte or vue), or use type "htmx".';

/** The workspace folder of a surface, relative to the project root. */
export function workspaceDir(additive?: string): string {
  return additive ? `additives/${additive}/frontend` : 'fluid/frontend';
}

/** The URL base the build is served at. */
export function workspaceBase(additive?: string): string {
  return additive ? `/${additive}/frontend/` : '/frontend/';
}

/** The npm workspace (package) name. */
export function workspaceName(project: string, additive?: string): string {
  return additive ? `${project}-${additive}-frontend` : `${project}-frontend`;
}

/** The folder of the installed create-vite templates. */
export function createViteTemplates(): string {
  const require = createRequire(import.meta.url);
  try {
    return path.dirname(require.resolve('create-vite/package.json'));
  } catch (err) {
    throw new FrontendGenerationError(`The create-vite package is not installed next to create-fw-app (${String(err)}); reinstall create-fw-app`);
  }
}

const TEXT = /\.(?:html|css|js|jsx|ts|tsx|mjs|cjs|json|md|svg|vue|svelte|txt)$|^_gitignore$|^\.gitignore$/;
const RENAMES: Readonly<Record<string, string>> = { _gitignore: '.gitignore', '_oxlintrc.json': '.oxlintrc.json' };

/** Renders the workspace; keys are paths relative to the project root. */
export function renderViteSurface(spec: ViteSurfaceSpec): Map<string, FileContent> {
  if (!(FRAMEWORKS as readonly string[]).includes(spec.framework)) {
    throw new FrontendGenerationError(`frontend.framework: got ${JSON.stringify(spec.framework)}; expected one of ${FRAMEWORKS.join(', ')}`);
  }
  if (spec.framework === 'qwik') throw new FrontendGenerationError(QWIK_LIMIT);
  const name = `template-${spec.framework === 'none' ? 'vanilla' : spec.framework}${spec.typescript ? '-ts' : ''}`;
  const source = path.join(spec.templates ?? createViteTemplates(), name);
  if (!existsSync(source)) throw new FrontendGenerationError(`create-vite has no ${name} template at ${source}`);
  const dir = workspaceDir(spec.additive);
  const base = workspaceBase(spec.additive);
  const out = new Map<string, FileContent>();
  for (const rel of listFiles(source)) {
    const file = path.basename(rel);
    const target = path.posix.join(dir, path.posix.dirname(rel), RENAMES[file] ?? file).replace(/\/\.\//g, '/');
    const bytes = readFileSync(path.join(source, rel));
    out.set(target, TEXT.test(file) ? bytes.toString('utf8') : new Uint8Array(bytes));
  }
  const pkgPath = `${dir}/package.json`;
  out.set(pkgPath, rewritePackageJson(String(out.get(pkgPath)), workspaceName(spec.project, spec.additive)));
  const configPath = [...out.keys()].find((k) => /\/vite\.config\.[jt]s$/.test(k) && path.posix.dirname(k) === dir);
  if (configPath) out.set(configPath, rewriteViteConfig(String(out.get(configPath)), base, configPath));
  else out.set(`${dir}/vite.config.js`, renderBlueprint('workspace/vite.config.js.hbs', { base }));
  return out;
}

function listFiles(root: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(root, prefix)).sort()) {
    const rel = prefix ? `${prefix}/${entry}` : entry;
    if (statSync(path.join(root, rel)).isDirectory()) files.push(...listFiles(root, rel));
    else files.push(rel);
  }
  return files;
}

interface PackageJson {
  name?: string;
  scripts?: Record<string, string>;
  [key: string]: unknown;
}

/** Workspace name; `build` becomes plain `vite build`, and the type-check before it becomes `check`. */
export function rewritePackageJson(text: string, name: string): string {
  const pkg = JSON.parse(text) as PackageJson;
  pkg.name = name;
  const scripts = { ...(pkg.scripts ?? {}) };
  const build = scripts.build ?? 'vite build';
  const parts = build.split('&&').map((p) => p.trim());
  if (parts.length > 1 && parts[parts.length - 1] === 'vite build') {
    const check = parts.slice(0, -1).join(' && ');
    scripts.check = scripts.check ? `${scripts.check} && ${check}` : check;
    scripts.build = 'vite build';
  }
  pkg.scripts = scripts;
  return JSON.stringify(pkg, null, 2) + '\n';
}

/** Adds `base` and the build `outDir` to a template's `defineConfig({ ... })`. */
export function rewriteViteConfig(text: string, base: string, file: string): string {
  const marker = 'defineConfig({';
  const at = text.indexOf(marker);
  if (at < 0) throw new FrontendGenerationError(`${file}: expected 'defineConfig({' in the template's vite.config`);
  const insert = `\n  base: '${base}',\n  build: { outDir: 'dist', emptyOutDir: true },`;
  return text.slice(0, at + marker.length) + insert + text.slice(at + marker.length);
}

/** Renders a file of `blueprints/frontend`. */
export function renderBlueprint(rel: string, data: Record<string, unknown>): string {
  return blueprintTemplate('frontend', rel)(data);
}
