/**
 * What fw publishes, checked on the packed packages: the file list of `npm pack --dry-run` (no
 * tsbuildinfo, no source maps, no tests; a LICENSE and a README), the metadata, publint and
 * @arethetypeswrong/cli on the tarballs the run published, every package a published `.d.ts`
 * imports declared as a dependency, create-fw-app's install size and dependency count, and an
 * Ocean index that lists only what fw publishes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { PUBLISHED_DIRS, REPO } from '../support/registry.js';
import { folderBytes, installedPackages, registry, user, workDir } from './helpers.js';

interface PackedFile {
  path: string;
}
interface PackageJson {
  name: string;
  version: string;
  license?: string;
  repository?: { type?: string; url?: string; directory?: string };
  publishConfig?: { access?: string };
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const BIN = (name: string): string => path.join(REPO, 'node_modules/.bin', name);

function packedFiles(dir: string): string[] {
  const result = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: path.join(REPO, dir), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm pack --dry-run failed in ${dir}:\n${result.stderr}`);
  const [packed] = JSON.parse(result.stdout) as { files: PackedFile[] }[];
  return (packed?.files ?? []).map((f) => f.path);
}

/** The npm package a module specifier names (`@scope/name/sub` → `@scope/name`), or undefined for relative and builtin ones. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The `@types` package of `name` (`koa` → `@types/koa`, `@scope/x` → `@types/scope__x`). */
function typesPackage(name: string): string {
  return `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
}

/** Whether the installed package `name` ships its own type declarations. */
function shipsTypes(name: string): boolean {
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as Record<string, unknown>;
  return pkg.types !== undefined || pkg.typings !== undefined || JSON.stringify(pkg.exports ?? {}).includes('"types"') ||
    existsSync(path.join(REPO, 'node_modules', name, 'index.d.ts'));
}

/** Every package the `.d.ts` files of a packed folder import (`from '…'`, `import('…')`, `/// <reference types>`). */
function typeImports(root: string, files: string[]): Set<string> {
  const found = new Set<string>();
  const pattern = /(?:from\s+|import\(\s*|reference types=)['"]([^'"]+)['"]/g;
  for (const file of files.filter((f) => f.endsWith('.d.ts'))) {
    for (const match of readFileSync(path.join(root, file), 'utf8').matchAll(pattern)) {
      const name = match[1] === undefined ? undefined : packageOf(match[1]);
      if (name !== undefined) found.add(name);
    }
  }
  return found;
}

describe.each(PUBLISHED_DIRS.map((dir) => [dir]))('%s', (dir) => {
  const pkg = JSON.parse(readFileSync(path.join(REPO, dir, 'package.json'), 'utf8')) as PackageJson;

  test('npm pack: no tsbuildinfo, no source maps, no tests; a LICENSE and a README', () => {
    const files = packedFiles(dir);
    expect(files.filter((f) => /\.tsbuildinfo$|\.map$/.test(f))).toEqual([]);
    // Blueprint templates (blueprints/**/*.hbs) are what generated apps' tests are made from, not tests.
    expect(files.filter((f) => /\.test\.[cm]?[jt]sx?$|(^|\/)__tests__\//.test(f) || /^test\//.test(f))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
    expect(readFileSync(path.join(REPO, dir, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });

  test('metadata: MIT, repository with its folder, Node >=22.12, public access when scoped', () => {
    expect(pkg.license).toBe('MIT');
    expect(pkg.repository).toMatchObject({ type: 'git', directory: dir });
    expect(pkg.engines?.node).toBe('>=22.12');
    if (pkg.name.startsWith('@')) expect(pkg.publishConfig?.access).toBe('public');
  });

  test('publint (strict) and @arethetypeswrong/cli pass on the published tarball', () => {
    const tarball = registry().published.find((p) => p.name === pkg.name)?.tarball;
    expect(tarball, `${pkg.name} was published by the run's globalSetup`).toBeDefined();
    const publint = spawnSync(BIN('publint'), ['run', tarball as string, '--strict'], { encoding: 'utf8' });
    expect(publint.status, publint.stdout + publint.stderr).toBe(0);
    // ESM only: fw's packages are ES modules, so the CommonJS resolutions are not checked.
    const attw = spawnSync(BIN('attw'), [tarball as string, '--profile', 'esm-only', '--format', 'ascii'], { encoding: 'utf8' });
    expect(attw.status, attw.stdout + attw.stderr).toBe(0);
  });

  test('every package its published .d.ts imports is a dependency (or peer), with its types (own or @types)', async () => {
    const unpacked = await mkdtemp(path.join(registry().dir, 'types-'));
    try {
      const tarball = registry().published.find((p) => p.name === pkg.name)?.tarball as string;
      const untar = spawnSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
      expect(untar.status).toBe(0);
      const files = readdirSync(unpacked, { recursive: true, encoding: 'utf8' });
      const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
      const imported = [...typeImports(unpacked, files)].filter((name) => name !== pkg.name);
      expect(imported.filter((name) => !declared.has(name) && !declared.has(typesPackage(name))), `${pkg.name}'s .d.ts import these undeclared packages`).toEqual([]);
      // A package without its own declarations reaches the user's tsc only through its @types.
      const untyped = imported.filter((name) => declared.has(name) && !shipsTypes(name) && !declared.has(typesPackage(name)));
      expect(untyped.map(typesPackage), `${pkg.name}'s .d.ts need these @types as dependencies`).toEqual([]);
    } finally {
      await rm(unpacked, { recursive: true, force: true });
    }
  });
});

test('@fw/kernel ships no raw Tailwind stylesheet: FW_TAILWIND never writes into node_modules/@fw/kernel', () => {
  expect(packedFiles('runtime-kernel').filter((f) => /(^|\/)(tailwind_raw|tailwind_no_themes)\.css$/.test(f))).toEqual([]);
});

test('@fw/kernel ships every documentation page its published .d.ts mention (@fw/kernel/docs/<page>.md) and every page those link to', async () => {
  const unpacked = await mkdtemp(path.join(registry().dir, 'kernel-docs-'));
  try {
    const tarball = registry().published.find((p) => p.name === '@fw/kernel')?.tarball as string;
    expect(spawnSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']).status).toBe(0);
    const mentioned = new Map<string, string>();
    const bare: string[] = [];
    for (const file of readdirSync(path.join(unpacked, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts'))) {
      for (const [whole, prefix, page] of readFileSync(path.join(unpacked, 'dist', file), 'utf8').matchAll(/(`@fw\/kernel\/)?docs\/([a-z0-9-]+\.md)/g)) {
        mentioned.set(page!, `dist/${file}`);
        if (!prefix) bare.push(`dist/${file} ${whole}`);
      }
    }
    // The pages the JSDoc of limit(), the plugins and the subpath modules send a user to.
    expect([...mentioned.keys()]).toEqual(expect.arrayContaining(['rate-limits.md', 'security.md', 'auth.md', 'kernel.md', 'deployment.md']));
    expect([...new Set(bare)], 'mentions a user cannot follow: write `@fw/kernel/docs/<page>.md`, in backticks (a bare @fw starts a JSDoc tag)').toEqual([]);
    for (const [page, file] of mentioned) expect(existsSync(path.join(unpacked, 'docs', page)), `${file} mentions ${page}`).toBe(true);
    // A link from a shipped page to another page leads to a shipped page too.
    const shipped = readdirSync(path.join(unpacked, 'docs'));
    for (const page of shipped) {
      for (const [, linked] of readFileSync(path.join(unpacked, 'docs', page), 'utf8').matchAll(/\]\(([a-z0-9-]+\.md)(?:#[^)]*)?\)/g)) {
        expect(shipped, `docs/${page} links to ${linked}`).toContain(linked);
      }
    }
    // Shipped as published, not rewritten: the same bytes as the repository's page.
    for (const page of shipped) expect(readFileSync(path.join(unpacked, 'docs', page), 'utf8')).toBe(readFileSync(path.join(REPO, 'docs', page), 'utf8'));
  } finally {
    await rm(unpacked, { recursive: true, force: true });
  }
});

test('@fw/cli ships every page "fw docs <topic>" prints, in the tarball the run published', () => {
  const tarball = registry().published.find((p) => p.name === '@fw/cli')?.tarball as string;
  const listed = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
  expect(listed.status).toBe(0);
  const shipped = listed.stdout.split('\n').filter((f) => /^package\/docs\/[^/]+\.md$/.test(f));
  const pages = readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md'));
  expect(shipped.sort()).toEqual(pages.map((f) => `package/docs/${f}`).sort());
  // The screenshots of docs/images/ stay in the repository (most of the weight).
  expect(listed.stdout).not.toContain('package/docs/images/');
  const result = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: path.join(REPO, 'generators'), encoding: 'utf8' });
  const [packed] = JSON.parse(result.stdout) as { size: number; unpackedSize: number }[];
  console.info(`@fw/cli tarball: ${((packed?.size ?? 0) / 1e3).toFixed(0)} kB (${((packed?.unpackedSize ?? 0) / 1e3).toFixed(0)} kB unpacked)`);
  expect(packed?.size).toBeLessThan(500_000);
});

test('create-fw-app installs in under 3 MB with at most 2 dependencies', async () => {
  const as = user();
  const work = await workDir('size');
  try {
    await writeFile(path.join(work, 'package.json'), '{ "private": true }\n');
    as.run('npm', ['install', 'create-fw-app@latest'], work);
    const installed = installedPackages(work);
    const bytes = folderBytes(path.join(work, 'node_modules'));
    console.info(`create-fw-app install: ${(bytes / 1e6).toFixed(2)} MB, ${installed.length} packages (${installed.join(', ')})`);
    expect(installed).toContain('create-fw-app');
    expect(installed.length - 1).toBeLessThanOrEqual(2);
    expect(bytes).toBeLessThan(3_000_000);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});

test('the embedded Ocean index lists only Additives fw publishes, at versions it published', () => {
  const index = JSON.parse(readFileSync(path.join(REPO, 'generators/ocean-index.json'), 'utf8')) as {
    additives: { id: string; package: string; versions: string[] }[];
  };
  const additives = PUBLISHED_DIRS.filter((dir) => dir.startsWith('runtime-kernel/additives/')).map(
    (dir) => JSON.parse(readFileSync(path.join(REPO, dir, 'package.json'), 'utf8')) as PackageJson,
  );
  expect(index.additives.map((a) => a.package).sort()).toEqual(additives.map((a) => a.name).sort());
  for (const additive of additives) {
    const entry = index.additives.find((a) => a.package === additive.name);
    expect(entry?.versions).toContain(additive.version);
  }
});
