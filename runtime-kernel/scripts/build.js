// @ts-check
/**
 * Builds @fw/kernel's JavaScript: esbuild bundles `src/` into `dist/`, one ES module per entry of
 * package.json `exports` (`dist/index.js`, `dist/<plugin>/index.js`, ...) and the code they share
 * in `dist/chunks/`. tsc writes only the `.d.ts` files (tsconfig.json: `emitDeclarationOnly`), so
 * the types and the `exports` map stay what they were.
 *
 * Why: about 560 ms of a 660 ms kernel boot was Node loading modules, one file at a time (about
 * 130 of the kernel's own, 95 of zod's, 17 of @fw/schemas'); a handful of files load far faster.
 * - Code splitting keeps every class single: a module lives in exactly one output, so `instanceof`
 *   holds across subpath exports (`HttpError` from `@fw/kernel` is the one from `@fw/kernel/core`).
 *   A lazy `await import('./x.js')` stays lazy (its own chunk).
 * - Packages stay external (apps dedupe koa, pino, ws, ...), except three that never cross the
 *   kernel's API at run time: `@fw/schemas` (the kernel's config parser, released at the same
 *   version; its types are still imported from the package, so it stays a dependency), its `zod`
 *   (the kernel passes no zod object in or out; bundling drops zod's 60 locales and JSON Schema
 *   code, which no kernel path uses) and `jsonc-parser` (stateless). That private zod parses
 *   without JIT (zod-jitless.js).
 *
 * The build fails when an output imports a package the kernel does not declare, or when the code
 * that locates the kernel's own folder (`core/static.ts`: `KERNEL_DIR`, two folders above its
 * module) would land at another depth.
 *
 * Then it copies into `docs/` (gitignored, shipped) the pages of the repository's `docs/` that the
 * kernel's declarations mention (`@fw/kernel/docs/security.md`, the hover text a user's editor
 * shows) and every page those link to, so each reference and each link between them resolves in
 * the installed package (`node_modules/@fw/kernel/docs/security.md`); the screenshots of
 * `docs/images/` stay in the repository. A mentioned page that does not exist fails the build.
 */
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(here, 'dist');
/** Packages bundled into the kernel (see above); every other package stays an import. */
const BUNDLED = ['@fw/schemas', 'zod', 'jsonc-parser'];

/** @type {{ exports: Record<string, string | { default: string }>, dependencies?: Record<string, string>, peerDependencies?: Record<string, string> }} */
const pkg = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
const entryPoints = Object.values(pkg.exports).flatMap((target) =>
  typeof target === 'object' ? [path.join(here, target.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'))] : [],
);
const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
const packageOf = (/** @type {string} */ specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** @type {import('esbuild').Plugin} */
const externals = {
  name: 'fw-kernel-externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === 'fw-bundled') return undefined;
      if (!BUNDLED.includes(packageOf(args.path))) return { path: args.path, external: true };
      if (args.path !== '@fw/schemas') return undefined;
      // @fw/schemas' modules only define schemas and functions: let esbuild drop the ones no kernel
      // path reaches (the JSON Schema emitter, the project and manifest schemas of the generators).
      const resolved = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'fw-bundled' });
      return { ...resolved, sideEffects: false };
    });
  },
};

// tsc emitted every module's JavaScript before this build existed; only the bundle's files belong here.
for (const file of existsSync(DIST) ? readdirSync(DIST, { recursive: true, encoding: 'utf8' }) : []) {
  if (file.endsWith('.js')) rmSync(path.join(DIST, file));
}
const result = await build({
  entryPoints,
  absWorkingDir: here,
  outdir: DIST,
  outbase: path.join(here, 'src'),
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.12',
  metafile: true,
  logLevel: 'warning',
  // jsonc-parser's `main` is a UMD build whose require() calls esbuild cannot follow: bundle its ES modules.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  plugins: [externals],
  inject: [fileURLToPath(new URL('zod-jitless.js', import.meta.url))],
});

const problems = [];
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  for (const { path: specifier, external } of output.imports) {
    if (external && !isBuiltin(specifier) && !declared.has(packageOf(specifier))) {
      problems.push(`${file} imports "${specifier}", which is not in the kernel's dependencies or peerDependencies`);
    }
  }
  if (Object.keys(output.inputs).some((input) => input.endsWith('src/core/static.ts'))) {
    const depth = path.relative(DIST, path.resolve(here, file)).split(path.sep).length;
    if (depth !== 2) problems.push(`${file} holds core/static.ts, whose KERNEL_DIR expects its module two folders below the package root`);
  }
}
if (problems.length > 0) throw new Error(`@fw/kernel build:\n  ${problems.join('\n  ')}`);
const outputs = Object.values(result.metafile.outputs);
const kib = outputs.reduce((sum, o) => sum + o.bytes, 0) / 1024;
process.stdout.write(`@fw/kernel: ${entryPoints.length} entries, ${outputs.length - entryPoints.length} shared or lazy chunks (${kib.toFixed(0)} KiB) in dist/\n`);

// The documentation the declarations mention (see above).
const DOCS_FROM = path.join(here, '..', 'docs');
const DOCS_TO = path.join(here, 'docs');
/** `docs/<page>.md` as the kernel's comments and the pages' own relative links name it. */
const MENTION = /(?:^|[^\w./-])(?:@fw\/kernel\/)?docs\/([a-z0-9-]+\.md)/g;
const LINK = /\]\(([a-z0-9-]+\.md)(?:#[^)]*)?\)/g;
const pages = new Set();
const missing = [];
for (const file of readdirSync(DIST, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.d.ts')) continue;
  for (const [, page] of readFileSync(path.join(DIST, file), 'utf8').matchAll(MENTION)) {
    if (!existsSync(path.join(DOCS_FROM, page))) missing.push(`dist/${file} mentions docs/${page}, which is not in docs/`);
    else pages.add(page);
  }
}
for (const page of pages) {
  for (const [, linked] of readFileSync(path.join(DOCS_FROM, page), 'utf8').matchAll(LINK)) {
    if (!existsSync(path.join(DOCS_FROM, linked))) missing.push(`docs/${page} links to ${linked}, which is not in docs/`);
    else pages.add(linked); // a Set iterates over what is added while it runs: the closure
  }
}
if (missing.length > 0) throw new Error(`@fw/kernel build:\n  ${missing.join('\n  ')}`);
rmSync(DOCS_TO, { recursive: true, force: true });
mkdirSync(DOCS_TO);
for (const page of pages) copyFileSync(path.join(DOCS_FROM, page), path.join(DOCS_TO, page));
process.stdout.write(`@fw/kernel: ${pages.size} documentation pages in docs/\n`);
