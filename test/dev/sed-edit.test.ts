/**
 * `fw dev` names the file a `sed -i` edited: sed writes the new text to a temporary file beside
 * it (`fluid/sedAbc123`) and renames that over the file, and the restart line used to name the
 * temporary file. A real `fw dev` (the built CLI) and GNU sed.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupDevProjects, devProject, DevRun, htmxApp, requireBuild } from './helpers.js';

let root: string;

beforeAll(() => {
  requireBuild();
  const app = htmxApp();
  // A generated data module of a few MB: sed takes long enough writing it that the watcher always
  // sees its temporary file (on a small file, only now and then).
  const words = Array.from({ length: 40_000 }, (_, i) => `  'word-${i}-of-the-generated-list',`);
  root = devProject({
    ...app,
    'fluid/words.ts': ["export const title = 'devapp';", 'export const words = [', ...words, '];', ''].join('\n'),
    'fluid/app.ts': app['fluid/app.ts']!.replace("{ title: 'devapp' }", '{ title }').replace("import { Fluid } from '@fw/kernel';", "import { Fluid } from '@fw/kernel';\nimport { title } from './words.js';"),
  });
});

afterAll(() => cleanupDevProjects());

describe('fw dev and sed -i', () => {
  it('restarts once, naming the edited file, not sed\'s temporary file', async () => {
    const dev = await DevRun.start(root, ['dev']);
    try {
      await dev.waitForBoot();
      expect(await (await fetch(`${dev.base}/`)).text()).toContain('<h1 class="text-lg">devapp</h1>');
      const sed = spawnSync('sed', ['-i', "s/^export const title = 'devapp'/export const title = 'edited by sed'/", 'fluid/words.ts'], { cwd: root, encoding: 'utf8' });
      expect(sed.status, sed.stderr).toBe(0);
      await dev.waitFor(async () => (await fetch(`${dev.base}/`).then((r) => r.text()).catch(() => '')).includes('edited by sed'), 'the restart after sed -i');
      expect(dev.output.match(/fw dev: (.*) changed, restarting/g), dev.output).toEqual(['fw dev: fluid/words.ts changed, restarting']);
      expect(dev.boots).toBe(2);
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  }, 120_000);
});
