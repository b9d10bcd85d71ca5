/**
 * Vite's build copies `public/` into `dist/` with dotfiles and symlink targets (issue 17 §2):
 * both production build paths refuse such a `public/` naming the file, before Vite runs: the
 * kernel's production boot and `fw build` (the built CLI, as a user runs it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Fluid } from '@fw/kernel';
import { memoryLogger } from '../kernel/helpers.js';
import { FW_BIN, requireBuild } from '../dev/helpers.js';
import { cleanupViteProjects, viteProject, writeFiles } from './helpers.js';

let root: string;
const publicDir = () => path.join(root, 'fluid/frontend/public');

beforeAll(() => {
  root = viteProject({ config: { FW_BUILD_FRONTEND: true }, surfaces: [{ frontend: { type: 'vite', framework: 'none' } }] });
});

afterEach(() => {
  rmSync(path.join(publicDir(), '.env'), { force: true });
  rmSync(path.join(publicDir(), 'nested'), { recursive: true, force: true });
  rmSync(path.join(publicDir(), 'passwd'), { force: true });
});

afterAll(() => cleanupViteProjects());

const boot = async () => {
  const fluid = new Fluid({ root, env: {}, logger: memoryLogger() });
  try {
    await fluid.listen(0, '127.0.0.1');
  } finally {
    await fluid.close();
  }
};

describe('the kernel production boot', () => {
  it('refuses a dotfile in public/, naming it, and builds nothing', async () => {
    writeFileSync(path.join(publicDir(), '.env'), 'SECRET_KEY=leak\n');
    await expect(boot()).rejects.toThrow(/fluid\/frontend\/public\/\.env is a dotfile in public\//);
    expect(existsSync(path.join(root, 'fluid/frontend/dist/.env'))).toBe(false);
  });

  it('refuses a dotfile in a nested folder of public/', async () => {
    writeFiles(publicDir(), { 'nested/.secret': 'x' });
    await expect(boot()).rejects.toThrow(/fluid\/frontend\/public\/nested\/\.secret is a dotfile/);
  });

  it('refuses public/ itself as a symlink (to app_configs/), naming it and its target', async () => {
    const saved = path.join(root, 'fluid/frontend/public-real');
    renameSync(publicDir(), saved);
    mkdirSync(path.join(root, 'app_configs'), { recursive: true });
    writeFileSync(path.join(root, 'app_configs/leak.ini'), 'SECRET_KEY = leak\n');
    symlinkSync('../../app_configs', publicDir());
    try {
      await expect(boot()).rejects.toThrow(/fluid\/frontend\/public is a symlink \(to \.\.\/\.\.\/app_configs\): Vite's build would copy everything in its target/);
      expect(existsSync(path.join(root, 'fluid/frontend/dist/leak.ini'))).toBe(false);
    } finally {
      rmSync(publicDir());
      renameSync(saved, publicDir());
      rmSync(path.join(root, 'app_configs/leak.ini'));
    }
  });

  it('refuses a symlink in public/, naming it and its target', async () => {
    symlinkSync('/etc/passwd', path.join(publicDir(), 'passwd'));
    await expect(boot()).rejects.toThrow(/fluid\/frontend\/public\/passwd is a symlink \(to \/etc\/passwd\)/);
    expect(existsSync(path.join(root, 'fluid/frontend/dist/passwd'))).toBe(false);
  });
});

describe("a workspace whose vite.config names another publicDir", () => {
  let custom: string;
  const config = (publicDir: string) =>
    `import { defineConfig } from 'vite'\n\nexport default defineConfig({\n  base: '/frontend/',\n  publicDir: ${publicDir},\n  build: { outDir: 'dist', emptyOutDir: true },\n})\n`;

  beforeAll(() => {
    requireBuild();
    custom = viteProject({ config: { FW_BUILD_FRONTEND: true }, surfaces: [{ frontend: { type: 'vite', framework: 'none' } }] });
    writeFiles(custom, { 'tsconfig.build.json': '{}\n', 'fluid/frontend/static-files/robots.txt': 'User-agent: *\n', 'fluid/frontend/static-files/.env': 'SECRET_KEY=leak\n' });
  });

  const bootCustom = async () => {
    const fluid = new Fluid({ root: custom, env: {}, logger: memoryLogger() });
    try {
      await fluid.listen(0, '127.0.0.1');
    } finally {
      await fluid.close();
    }
  };

  it("publicDir: 'static-files' with a dotfile: the boot and fw build refuse it, naming it", async () => {
    writeFiles(custom, { 'fluid/frontend/vite.config.js': config("'static-files'") });
    await expect(bootCustom()).rejects.toThrow(/fluid\/frontend\/static-files\/\.env is a dotfile in static-files\//);
    const ran = spawnSync(process.execPath, [FW_BIN, 'build'], { cwd: custom, encoding: 'utf8', timeout: 120_000 });
    expect(ran.status).toBe(1);
    expect(ran.stderr).toContain('fw build: fluid/frontend/static-files/.env is a dotfile in static-files/');
    expect(existsSync(path.join(custom, 'fluid/frontend/dist/.env'))).toBe(false);
  });

  it('publicDir: false: nothing is copied, so a dotfile in public/ is not refused', async () => {
    writeFiles(custom, { 'fluid/frontend/vite.config.js': config('false'), 'fluid/frontend/public/.env': 'SECRET_KEY=unused\n' });
    try {
      const ran = spawnSync(process.execPath, [FW_BIN, 'build'], { cwd: custom, encoding: 'utf8', timeout: 120_000 });
      expect(ran.stderr).not.toContain('is a dotfile');
    } finally {
      rmSync(path.join(custom, 'fluid/frontend/public/.env'));
    }
  });
});

describe('fw build', () => {
  beforeAll(() => {
    requireBuild();
    writeFiles(root, { 'tsconfig.build.json': '{}\n' }); // fw build wants one; the refusal comes before tsc runs
  });

  const build = () => spawnSync(process.execPath, [FW_BIN, 'build'], { cwd: root, encoding: 'utf8', timeout: 120_000 });

  it('refuses a dotfile in public/ naming it, and exits 1', () => {
    writeFileSync(path.join(publicDir(), '.env'), 'SECRET_KEY=leak\n');
    const ran = build();
    expect(ran.status).toBe(1);
    expect(ran.stderr).toContain('fw build: fluid/frontend/public/.env is a dotfile in public/');
    expect(existsSync(path.join(root, 'fluid/frontend/dist/.env'))).toBe(false);
  });

  it('refuses a symlink in public/ naming it, and exits 1', () => {
    symlinkSync('/etc/passwd', path.join(publicDir(), 'passwd'));
    const ran = build();
    expect(ran.status).toBe(1);
    expect(ran.stderr).toContain('fw build: fluid/frontend/public/passwd is a symlink (to /etc/passwd)');
    expect(existsSync(path.join(root, 'fluid/frontend/dist/passwd'))).toBe(false);
  });
});
