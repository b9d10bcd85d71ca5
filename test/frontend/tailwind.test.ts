/** Tailwind v4 compiled in-process; regenerated at boot with FW_TAILWIND; the `fw tailwind --` passthrough. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Additive, Fluid } from '@fw/kernel';
import { compileTailwind, rawStylesheetName, tailwindCli, tailwindCmd, TailwindError } from '@fw/kernel/frontend';
import { cleanupProjects, makeFluid, makeProject, memoryLogger, start } from '../kernel/helpers.js';
import { REPO_ROOT } from './helpers.js';

const open: Fluid[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((f) => f.close()));
});
const made: string[] = [];
afterAll(() => {
  cleanupProjects();
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const RAW = '@import "tailwindcss";\n';

describe('compileTailwind', () => {
  it('compiles only the classes used by the sources it scans', async () => {
    const root = makeProject({ files: { 'templates/index.html': '<p class="text-red-500 mt-4">x</p>', 'static/tailwind_raw.css': RAW } });
    const css = await compileTailwind(RAW, join(root, 'static/tailwind_raw.css'), { base: root });
    expect(css).toContain('.text-red-500');
    expect(css).toContain('.mt-4');
    expect(css).not.toContain('.text-blue-500');
  });

  it('a broken stylesheet raises TailwindError naming the file', async () => {
    const root = makeProject({ files: { 'a.css': '@import "tailwindcss";\n@apply nonexistent-class;' } });
    await expect(compileTailwind('@import "tailwindcss";\n.x { @apply not-a-utility; }', join(root, 'a.css'))).rejects.toThrow(TailwindError);
    await expect(compileTailwind('@import "tailwindcss";\n.x { @apply not-a-utility; }', join(root, 'a.css'))).rejects.toThrow(/a\.css/);
  });
});

describe('FW_TAILWIND at boot', () => {
  it('regenerates fluid/static/tailwind.css from tailwind_raw.css, and include() links it', async () => {
    const fluid = makeFluid({
      config: { FW_TAILWIND: true, APP_FRONTEND: { type: 'htmx' } },
      files: {
        'fluid/static/tailwind_raw.css': RAW,
        'fluid/static/tailwind.css': '/* stale */',
        'fluid/templates/index.html': '<html><head>{{frontend}}</head><body class="bg-emerald-700">x</body></html>',
      },
    });
    open.push(fluid);
    fluid.app.get('home', '/', (ctx) => ctx.render('index.html'));
    const base = await start(fluid);
    const css = readFileSync(join(fluid.root, 'fluid/static/tailwind.css'), 'utf8');
    expect(css).not.toContain('stale');
    expect(css).toContain('.bg-emerald-700');
    expect(await (await fetch(`${base}/`)).text()).toContain('<link rel="stylesheet" href="/static/tailwind.css">');
    expect(await (await fetch(`${base}/static/tailwind.css`)).text()).toContain('.bg-emerald-700');
  });

  it('the log line says what was written: compiled files, those already up to date, or nothing written at all', async () => {
    const files = {
      'fluid/static/tailwind_raw.css': RAW,
      'fluid/templates/index.html': '<p class="underline">x</p>',
      'additives/shop/manifest.json': JSON.stringify({ name: 'shop', version: '1.0.0' }),
      'additives/shop/static/tailwind_raw.css': RAW,
    };
    const root = makeProject({ config: { FW_TAILWIND: true, APP_FRONTEND: { type: 'htmx' } }, files });
    /** Boots the app at `root` (with its Additive) and answers its info lines about Tailwind. */
    const boot = async (): Promise<string[]> => {
      const logger = memoryLogger();
      const fluid = new Fluid({ root, env: {}, logger });
      try {
        fluid.additive(new Additive('shop', { root: join(root, 'additives/shop') }));
        await fluid.mix();
      } finally {
        await fluid.close();
      }
      return logger.lines.filter((l) => l.startsWith('info tailwind'));
    };
    const app = 'fluid/static/tailwind.css';
    const shop = 'additives/shop/static/tailwind.css';
    expect(await boot()).toEqual([`info tailwind compiled ${JSON.stringify({ files: [app, shop] })}`]);
    const css = readFileSync(join(root, app), 'utf8');
    // Nothing changed: nothing written, and the line says so (it listed both files as compiled).
    expect(await boot()).toEqual([`info tailwind up to date ${JSON.stringify({ files: [app, shop] })}`]);
    expect(readFileSync(join(root, app), 'utf8')).toBe(css);
    rmSync(join(root, app));
    expect(await boot()).toEqual([`info tailwind compiled ${JSON.stringify({ files: [app], unchanged: [shop] })}`]);
    expect(readFileSync(join(root, app), 'utf8')).toBe(css);
  });

  it('FW_THEMES off reads tailwind_no_themes.css instead', async () => {
    expect([rawStylesheetName(true), rawStylesheetName(false)]).toEqual(['tailwind_raw.css', 'tailwind_no_themes.css']);
    const fluid = makeFluid({
      config: { FW_TAILWIND: true, FW_THEMES: false },
      files: {
        'fluid/static/tailwind_raw.css': '@import "tailwindcss";\n.themed { color: red; }\n',
        'fluid/static/tailwind_no_themes.css': '@import "tailwindcss";\n.plain { color: blue; }\n',
      },
    });
    open.push(fluid);
    await fluid.mix();
    const css = readFileSync(join(fluid.root, 'fluid/static/tailwind.css'), 'utf8');
    expect(css).toContain('.plain');
    expect(css).not.toContain('.themed');
  });

  it('compiles an Additive\'s stylesheet too, and a Vite surface\'s into its source tree', async () => {
    const fluid = makeFluid({
      config: { FW_TAILWIND: true, FW_CHECK_FRONTEND: false, FW_BUILD_FRONTEND: false },
      files: {
        'additives/shop/manifest.json': JSON.stringify({ name: 'shop', version: '1.0.0', frontend: { type: 'vite', framework: 'react' } }),
        'additives/shop/static/tailwind_raw.css': RAW,
        'additives/shop/frontend/src/App.jsx': 'export default () => <p className="underline">x</p>',
        'additives/shop/frontend/dist/index.html': '<html><head></head></html>',
      },
    });
    open.push(fluid);
    fluid.additive(new Additive('shop', { root: join(fluid.root, 'additives/shop') }));
    await fluid.mix();
    expect(readFileSync(join(fluid.root, 'additives/shop/static/tailwind.css'), 'utf8')).toContain('.underline');
    expect(readFileSync(join(fluid.root, 'additives/shop/frontend/src/tailwind.css'), 'utf8')).toContain('.underline');
    expect(fluid.additives.get('shop')!.frontend.tailwind).toBe('/shop/static/tailwind.css');
  });

  it('FW_TAILWIND on without any raw stylesheet warns, naming the file to create', async () => {
    const logger = memoryLogger();
    const fluid = makeFluid({ config: { FW_TAILWIND: true, APP_FRONTEND: { type: 'htmx' } } }, { logger });
    open.push(fluid);
    await fluid.mix();
    expect(logger.lines.filter((l) => l.startsWith('warn '))).toEqual([
      'warn FW_TAILWIND is on but no surface has a raw stylesheet, so nothing was compiled: create fluid/static/tailwind_raw.css (or additives/<name>/static/tailwind_raw.css) holding @import "tailwindcss";',
    ]);
    expect(logger.lines.some((l) => l.startsWith('info tailwind compiled'))).toBe(false);
  });

  it('FW_TAILWIND off leaves the compiled file alone', async () => {
    const fluid = makeFluid({ files: { 'fluid/static/tailwind_raw.css': RAW } });
    open.push(fluid);
    await fluid.mix();
    expect(existsSync(join(fluid.root, 'fluid/static/tailwind.css'))).toBe(false);
  });
});

describe('fw tailwind passthrough', () => {
  it('requires -- before the Tailwind arguments', async () => {
    await expect(tailwindCli(['--help'])).rejects.toThrow(/put '--' before the Tailwind arguments/);
    await expect(tailwindCli([])).rejects.toBeInstanceOf(TailwindError);
  });

  it('runs the Tailwind CLI and raises TailwindError on a non-zero exit', async () => {
    // Under the repo, so the CLI (which resolves "tailwindcss" from its cwd) finds the package.
    mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true }); // a fresh checkout has no .tmp/ yet
    const root = mkdtempSync(join(REPO_ROOT, '.tmp', 'fw-tailwind-cli-'));
    made.push(root);
    writeFileSync(join(root, 'in.css'), RAW);
    writeFileSync(join(root, 'index.html'), '<p class="p-2">');
    await tailwindCli(['--', '-i', 'in.css', '-o', 'out.css'], root);
    expect(readFileSync(join(root, 'out.css'), 'utf8')).toContain('.p-2');
    await expect(tailwindCmd(['-i', 'missing.css', '-o', 'x.css'], root)).rejects.toThrow(TailwindError);
  });
});
