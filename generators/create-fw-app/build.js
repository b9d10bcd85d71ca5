// @ts-check
/**
 * Builds create-fw-app: ONE esbuild bundle of the generators' create path
 * (`generators/src/bin/create-fw-app.ts` and everything it imports, @fw/schemas, zod and
 * handlebars included) into dist/index.js, plus a copy of the blueprints that path renders.
 * create-vite stays a real dependency: the Vite surfaces copy its templates at generation time.
 *
 * The heavy modules of the rest of the CLI are NOT shipped. If the create path reaches one of
 * them, the bundle throws at that point with an error naming the module (instead of bundling
 * megabytes, or failing with a bare "Cannot find package"); the packed-contents test fails on it.
 */
import { build } from 'esbuild';
import { cp, mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { writePins } from '../scripts/write-pins.js';

const here = (/** @type {string} */ p) => fileURLToPath(new URL(p, import.meta.url));

/** Modules the create path must never load (they belong to `fw`, in @fw/cli). */
export const NOT_SHIPPED = ['prettier', 'node-plop', 'ts-morph', 'typescript', 'tsx', 'typesafe-i18n', 'gettext-parser'];
/** The blueprint kinds `create-fw-app` renders (the project, and the Vite wiring of a vite surface). */
export const BLUEPRINTS = ['project', 'frontend'];

/** @type {import('esbuild').Plugin} */
const notShipped = {
  name: 'fw-not-shipped',
  setup(b) {
    const filter = new RegExp(`^(?:${NOT_SHIPPED.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?:/.*)?$`);
    b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'fw-not-shipped' }));
    b.onLoad({ filter: /.*/, namespace: 'fw-not-shipped' }, (args) => ({
      loader: 'js',
      contents:
        `throw new Error(${JSON.stringify(
          `create-fw-app reached "${args.path}", which it does not ship (it belongs to the fw command, @fw/cli). ` +
            'Create the project with the fw command instead: npx -p @fw/cli fw create project <dir>',
        )});`,
    }));
  },
};

await rm(here('./dist'), { recursive: true, force: true });
const result = await build({
  entryPoints: [here('../src/bin/create-fw-app.ts')],
  outfile: here('./dist/index.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22.12',
  minify: true,
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
  // The bundled CommonJS dependencies (handlebars) call require(): give the ES module one.
  banner: { js: "import { createRequire as __fwCreateRequire } from 'node:module'; const require = __fwCreateRequire(import.meta.url);" },
  // jsonc-parser's `main` is a UMD build whose require() calls esbuild cannot follow: bundle its ES modules.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  plugins: [notShipped],
});
await mkdir(here('./blueprints'), { recursive: true });
for (const kind of BLUEPRINTS) {
  await rm(here(`./blueprints/${kind}`), { recursive: true, force: true });
  await cp(here(`../../blueprints/${kind}`), here(`./blueprints/${kind}`), { recursive: true });
}
await writePins(here('.'));
const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
process.stdout.write(`create-fw-app: dist/index.js (${(bytes / 1024).toFixed(0)} KiB) and blueprints/{${BLUEPRINTS.join(',')}}\n`);
