/**
 * Codemods by symbol, at the command level: random `fluid/app.ts` files that already use the names
 * an Additive would take (`events`, `db`, `fluid`, `app`, `api`: declared, called as properties,
 * imported), then random `fw create additive` / `fw destroy additive` sequences. Every sequence
 * ends with a project that type-checks (TypeScript's API in-process, against the kernel's real
 * declarations) and with no import of an Additive that is gone. Two projects are also checked with
 * the real `tsc` binary.
 */
import { spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { REPO } from '../generators/helpers.js';
import { fw, newProject } from '../generators/project-helpers.js';
import { prng } from '../support/random.js';


/** Declarations of names Additives may take, by key. */
const DECLARATIONS: Readonly<Record<string, string>> = {
  db: "export const db = { url: 'file:./var/main.db' };",
  events: "function events(): string[] {\n  return ['signup'];\n}",
  app: "const app = { title: 'mine' };",
  shop: "import { join as shop } from 'node:path';",
};

/** Statements after the app's declaration using those names (or properties named like them), with the declarations they need. */
const USES: ReadonlyArray<{ needs: string[]; after?: string }> = [
  { needs: ['db'] },
  { needs: ['events'] },
  { needs: ['app'] },
  { needs: [], after: "const api = fluid.api;\napi.get('ping', '/ping', () => 'pong');" },
  { needs: [], after: "export const signup = fluid.events.createSignal<{ id: string }>('signup');" },
  { needs: ['db'], after: "fluid.app.get('db-url', '/db-url', () => db.url);" },
  { needs: ['events', 'app'], after: 'fluid.onStartup(() => {\n  console.log(events().length, app.title);\n});' },
  { needs: ['shop'], after: "fluid.app.get('shop', '/where', () => shop('a', 'b'));" },
];

/** A random valid `fluid/app.ts` that already uses some of those names. */
function randomApp(random: () => number): string {
  const chosen = USES.filter(() => random() < 0.5);
  const needed = Object.keys(DECLARATIONS).filter((k) => chosen.some((u) => u.needs.includes(k)));
  const declarations = needed.map((k) => DECLARATIONS[k]!);
  return [
    "import { Fluid } from '@fw/kernel';",
    ...declarations.filter((d) => d.startsWith('import')),
    '',
    ...declarations.filter((d) => !d.startsWith('import')).flatMap((d) => [d, '']),
    "export const fluid = new Fluid({ root: new URL('..', import.meta.url) });",
    '',
    ...chosen.flatMap((u) => (u.after ? [u.after, ''] : [])),
    'export default fluid;',
    '',
  ].join('\n');
}

/**
 * Parsed declaration files that no test writes (TypeScript's libs, the checkout's node_modules,
 * reached through each project's node_modules link), shared by every program as an editor's
 * language service shares them: parsing them again for each check was most of this file's time.
 */
const parsedOutside = new Map<string, ts.SourceFile>();

/** Type-checks a project with TypeScript's API in-process; returns the diagnostics as `file(line): message`. */
function typecheck(root: string): string[] {
  const configFile = path.join(root, 'tsconfig.json');
  const read = ts.readConfigFile(configFile, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configFile);
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    const project = fileName.startsWith(`${root}/`) && !fileName.includes('/node_modules/');
    if (project) return getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
    const key = `${fileName}\0${JSON.stringify(languageVersionOrOptions)}`;
    let file = parsedOutside.get(key);
    if (file === undefined) {
      file = getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
      if (file !== undefined) parsedOutside.set(key, file);
    }
    return file;
  };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(root, d.file.fileName)}(${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1})` : 'tsconfig';
    return `${where}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

/** A project that resolves `@fw/kernel`, vitest and @types/node from this checkout, as after `npm install`. */
async function project(name: string): Promise<string> {
  const root = await newProject(name, '--surface', 'none');
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return root;
}

/** The Additive modules `fluid/app.ts` imports locally. */
function localImports(app: string): string[] {
  return [...app.matchAll(/from '\.\.\/additives\/([^/]+)\/index\.js'/g)].map((m) => m[1]!);
}

const POOL = ['events', 'db', 'app', 'shop', 'blog'];
const SEEDS = Number(process.env.FW_PROPERTY_SEEDS ?? 12);

describe('create and destroy additives over apps that already use their names', () => {
  test.each(Array.from({ length: SEEDS }, (_, i) => i + 1))('seed %i: the project type-checks and no import is left dangling', async (seed) => {
    const random = prng(seed * 7717);
    const root = await project('symbols-app');
    const original = randomApp(random);
    await writeFile(path.join(root, 'fluid/app.ts'), original);
    expect(typecheck(root), `seed ${seed}: the starting app type-checks`).toEqual([]);
    const present = new Set<string>();
    for (let step = 0; step < 2 + Math.floor(random() * 5); step++) {
      const name = POOL[Math.floor(random() * POOL.length)]!;
      const ran = present.has(name) ? await fw(root, 'destroy', 'additive', name) : await fw(root, 'create', 'additive', name, '--force');
      expect(ran.code, `seed ${seed} step ${step} ${name}: ${ran.error ?? ran.out}`).toBe(0);
      if (present.has(name)) present.delete(name);
      else present.add(name);
      const app = await readFile(path.join(root, 'fluid/app.ts'), 'utf8');
      expect(localImports(app).sort(), `seed ${seed} step ${step}: imports follow the Additives`).toEqual([...present].sort());
    }
    expect(typecheck(root), `seed ${seed}:\n${await readFile(path.join(root, 'fluid/app.ts'), 'utf8')}`).toEqual([]);
    for (const name of [...present]) expect((await fw(root, 'destroy', 'additive', name)).code).toBe(0);
    expect(await readFile(path.join(root, 'fluid/app.ts'), 'utf8'), `seed ${seed}: destroying every Additive restores the app file`).toBe(original);
  }, 120_000);

  test('the two reported cases, checked with the real tsc: events after fluid.events, db next to export const db', async () => {
    const root = await project('cases-app');
    const app = [
      "import { Fluid } from '@fw/kernel';",
      '',
      "export const db = { url: 'file:./var/main.db' };",
      '',
      "export const fluid = new Fluid({ root: new URL('..', import.meta.url) });",
      "export const signup = fluid.events.createSignal<{ id: string }>('signup');",
      '',
      'export default fluid;',
      '',
    ].join('\n');
    await writeFile(path.join(root, 'fluid/app.ts'), app);
    expect((await fw(root, 'create', 'additive', 'events')).code).toBe(0);
    expect((await fw(root, 'create', 'additive', 'db')).code).toBe(0);
    const registered = await readFile(path.join(root, 'fluid/app.ts'), 'utf8');
    expect(registered).toContain("import dbAdditive from '../additives/db/index.js';");
    expect(registered).toContain('fluid.additive(dbAdditive);');
    const tsc = (): { status: number | null; output: string } => {
      const r = spawnSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', root], { encoding: 'utf8' });
      return { status: r.status, output: r.stdout + r.stderr };
    };
    expect(tsc()).toEqual({ status: 0, output: '' });
    expect((await fw(root, 'destroy', 'additive', 'events')).code).toBe(0);
    expect(await readFile(path.join(root, 'fluid/app.ts'), 'utf8')).not.toContain('additives/events');
    expect(tsc()).toEqual({ status: 0, output: '' });
    expect((await fw(root, 'destroy', 'additive', 'db')).code).toBe(0);
    expect(await readFile(path.join(root, 'fluid/app.ts'), 'utf8')).toBe(app);
  }, 120_000);
});
