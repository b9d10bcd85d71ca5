/**
 * The kernel's import graph: no cycle anywhere in runtime-kernel/src (type imports included), and
 * the core imports no plugin. The rules are shown to fail on a copy of the sources with a planted
 * type-only import.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importViolations, type Boundary } from './cruise.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SRC = path.join(REPO, 'runtime-kernel/src');

/** Every plugin folder: each is a folder of src/ other than core/. */
const PLUGINS = readdirSync(SRC, { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== 'core')
  .map((e) => e.name);

const BOUNDARIES: Boundary[] = PLUGINS.map((p) => ({ name: `core-imports-no-plugin-${p}`, from: 'core', to: p }));

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the kernel sources under the repo's .tmp (so packages resolve), with its own tsconfig. */
function copySources(): string {
  mkdirSync(path.join(REPO, '.tmp'), { recursive: true });
  const root = mkdtempSync(path.join(REPO, '.tmp', 'arch-'));
  made.push(root);
  cpSync(SRC, path.join(root, 'src'), { recursive: true });
  writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true }, include: ['src'] }),
  );
  return root;
}

function plant(root: string, file: string, line: string): void {
  const target = path.join(root, 'src', file);
  writeFileSync(target, `${line}\n${readFileSync(target, 'utf8')}`);
}

describe('runtime-kernel/src imports', () => {
  it('the plugin folders are the ones the architecture names', () => {
    // `testing` is not a plugin (only an app's tests import it) but, like one, the core never imports it.
    expect(PLUGINS.sort()).toEqual(['auth', 'body', 'cache', 'db', 'events', 'frontend', 'health', 'i18n', 'limits', 'logging', 'mail', 'security', 'sockets', 'testing', 'tokens']);
  });

  it('has no import cycle, and the core imports no plugin', async () => {
    const violations = await importViolations('runtime-kernel/src', {
      cwd: REPO,
      tsconfig: 'runtime-kernel/tsconfig.json',
      boundaries: BOUNDARIES,
    });
    expect(violations).toEqual([]);
  }, 120_000);

  it('finds a planted cycle made of type-only imports, naming the modules around it', async () => {
    const root = copySources();
    plant(root, 'core/markup.ts', "import type { FluidCore } from './fluid.js';\nexport type PlantedCycle = FluidCore;");
    const violations = await importViolations('src', { cwd: root, tsconfig: 'tsconfig.json', boundaries: BOUNDARIES });
    const cycles = violations.filter((v) => v.rule === 'no-circular');
    expect(cycles.length).toBeGreaterThan(0);
    expect(cycles.some((v) => v.cycle.includes('src/core/markup.ts') && v.cycle.includes('src/core/fluid.ts'))).toBe(true);
    expect(violations.filter((v) => v.rule !== 'no-circular')).toEqual([]);
  }, 120_000);

  it('finds a planted import of a plugin in the core', async () => {
    const root = copySources();
    plant(root, 'core/serve.ts', "import type { Events } from '../events/events.js';\nexport type PlantedPlugin = Events;");
    const violations = await importViolations('src', { cwd: root, tsconfig: 'tsconfig.json', boundaries: BOUNDARIES });
    expect(violations).toContainEqual(expect.objectContaining({ rule: 'core-imports-no-plugin-events', from: 'src/core/serve.ts', to: 'src/events/events.ts' }));
  }, 120_000);
});
