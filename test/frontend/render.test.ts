/** Generation of Vite surfaces from create-vite's templates and the project-level setupFrontend. */
import { describe, expect, it } from 'vitest';
import {
  FRAMEWORKS,
  FrontendGenerationError,
  QWIK_LIMIT,
  renderViteSurface,
  setupFrontend,
  type Framework,
} from '../../generators/src/frontend/index.js';

const BUILDABLE = FRAMEWORKS.filter((f) => f !== 'qwik');

describe('renderViteSurface', () => {
  it.each(BUILDABLE.flatMap((f) => [[f, false] as const, [f, true] as const]))('%s (typescript %s) is rewritten for the fw layout', (framework, typescript) => {
    const files = renderViteSurface({ project: 'demo', framework: framework as Framework, typescript });
    for (const key of files.keys()) expect(key.startsWith('fluid/frontend/')).toBe(true);
    expect(files.has('fluid/frontend/index.html')).toBe(true);
    expect(files.has('fluid/frontend/.gitignore')).toBe(true);
    expect([...files.keys()].some((k) => k.includes('/_'))).toBe(false);
    const pkg = JSON.parse(String(files.get('fluid/frontend/package.json'))) as { name: string; scripts: Record<string, string> };
    expect(pkg.name).toBe('demo-frontend');
    expect(pkg.scripts.build).toBe('vite build');
    if (typescript) expect(pkg.scripts.check).toMatch(/tsc|svelte-check/);
    const config = [...files].find(([k]) => /^fluid\/frontend\/vite\.config\.[jt]s$/.test(k));
    expect(config, 'a vite.config').toBeDefined();
    expect(String(config![1])).toContain("base: '/frontend/'");
    expect(String(config![1])).toContain("outDir: 'dist'");
  });

  it('an Additive surface lives in its folder and is served under its prefix', () => {
    const files = renderViteSurface({ project: 'demo', additive: 'shop', framework: 'vue', typescript: true });
    expect(JSON.parse(String(files.get('additives/shop/frontend/package.json'))).name).toBe('demo-shop-frontend');
    expect(String(files.get('additives/shop/frontend/vite.config.ts'))).toContain("base: '/shop/frontend/'");
  });

  it('binary assets come back as bytes', () => {
    const files = renderViteSurface({ project: 'demo', framework: 'react', typescript: false });
    const png = files.get('fluid/frontend/src/assets/hero.png');
    expect(png).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(png as Uint8Array).subarray(1, 4).toString()).toBe('PNG');
  });

  it('qwik is refused at generation time with the reason', () => {
    expect(() => renderViteSurface({ project: 'demo', framework: 'qwik', typescript: false })).toThrow(FrontendGenerationError);
    expect(() => renderViteSurface({ project: 'demo', framework: 'qwik', typescript: true })).toThrow(QWIK_LIMIT);
    expect(QWIK_LIMIT).toMatch(/Vite below 8/);
  });
});

describe('setupFrontend', () => {
  it('writes the workspaces, the orchestrating vite.config and the ignore lines', () => {
    const files = setupFrontend({
      name: 'demo',
      packageJson: JSON.stringify({ name: 'demo', private: true, dependencies: { '@fw/kernel': '0.1.0' } }),
      gitignore: 'node_modules\n',
      surfaces: [
        { frontend: { type: 'vite', framework: 'react' } },
        { additive: 'shop', frontend: { type: 'vite', framework: 'svelte', typescript: true } },
        { additive: 'blog', frontend: { type: 'htmx' } },
      ],
    });
    const pkg = JSON.parse(String(files.get('package.json'))) as { workspaces: string[]; dependencies: object };
    expect(pkg.workspaces).toEqual(['fluid/frontend', 'additives/shop/frontend']);
    expect(pkg.dependencies).toEqual({ '@fw/kernel': '0.1.0' });
    const config = String(files.get('vite.config.js'));
    expect(config).toContain("import react from '@vitejs/plugin-react'");
    expect(config).toContain("import { svelte } from '@sveltejs/vite-plugin-svelte'");
    expect(config).toContain('react({ include: [/\\/fluid\\/frontend\\/.*\\.[jt]sx?$/] })');
    expect(config).toContain('svelte()');
    const ignore = String(files.get('.gitignore')).split('\n');
    expect(ignore).toEqual(expect.arrayContaining(['node_modules', 'fluid/static/tailwind.css', 'additives/blog/static/tailwind.css', 'fluid/frontend/dist']));
    expect(files.has('additives/shop/frontend/src/App.svelte')).toBe(true);
    expect(files.has('additives/blog/frontend/index.html')).toBe(false);
  });

  it('without a Vite surface it writes no workspaces and no vite.config', () => {
    const files = setupFrontend({ name: 'demo', packageJson: '{"name":"demo","workspaces":["old"]}', surfaces: [{ frontend: { type: 'htmx', alpine: true } }] });
    expect(JSON.parse(String(files.get('package.json'))).workspaces).toBeUndefined();
    expect(files.has('vite.config.js')).toBe(false);
    expect(String(files.get('.gitignore'))).toBe('fluid/static/tailwind.css\n');
  });

  it('names the file and key path of a bad block', () => {
    expect(() => setupFrontend({ name: 'd', packageJson: '{}', surfaces: [{ frontend: { type: 'vite', framework: 'angular' } }] })).toThrow(
      /fw\.json: config\.APP_FRONTEND\.framework: got "angular"/,
    );
    expect(() => setupFrontend({ name: 'd', packageJson: '{}', surfaces: [{ additive: 'shop', frontend: { type: 'vite' } }] })).toThrow(
      /additives\/shop\/manifest\.json: frontend\.framework/,
    );
  });
});
