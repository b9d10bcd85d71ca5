/**
 * An app that stopped on a package it lacks comes back after the `npm install` that adds it: npm
 * writes `package-lock.json` once it has installed, and `fw dev` restarts on it. Before, the
 * install changed only ignored files (`node_modules/`), so the app stayed down, answering the
 * error that named the command just run, until some other file was saved. A real `fw dev` (the
 * built CLI) and a real, offline `npm install` of a local package folder.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupDevProjects, devProject, DevRun, htmxApp, requireBuild } from './helpers.js';

const PROBE = 'fw-dev-install-probe';
let root: string;

beforeAll(() => {
  requireBuild();
  const app = htmxApp();
  root = devProject({
    ...app,
    'fluid/app.ts': app['fluid/app.ts']!.replace(
      "import { Fluid } from '@fw/kernel';",
      `import { Fluid } from '@fw/kernel';\nimport { greeting } from '${PROBE}';`,
    ).replace("{ title: 'devapp' }", '{ title: greeting }'),
    [`vendor/${PROBE}/package.json`]: JSON.stringify({
      name: PROBE,
      version: '1.0.0',
      type: 'module',
      exports: './index.js',
    }),
    [`vendor/${PROBE}/index.js`]: "export const greeting = 'installed';\n",
  });
});

afterAll(() => cleanupDevProjects());

describe('fw dev and npm install', () => {
  it('restarts the app once npm install wrote package-lock.json', async () => {
    const dev = await DevRun.start(root, ['dev']);
    try {
      await dev.waitFor(() => dev.output.includes('waiting for changes to restart it'), 'the app stopping on the missing package');
      expect(dev.output).toContain(`Cannot find package '${PROBE}'`);
      const npm = spawnSync('npm', ['install', `./vendor/${PROBE}`, '--offline', '--no-audit', '--no-fund'], { cwd: root, encoding: 'utf8' });
      expect(npm.status, npm.stderr).toBe(0);
      await dev.waitForBoot();
      expect(dev.output).toContain('fw dev: package-lock.json changed, restarting');
      expect(await (await fetch(`${dev.base}/`)).text()).toContain('<h1 class="text-lg">installed</h1>');
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  }, 120_000);
});
