/**
 * A restart under `fw dev` does not drain. A production app that a prober watched in the last
 * minute keeps serving `SERVER_DRAIN_DELAY` (5 s) after SIGTERM so a load balancer moves traffic
 * away; under `fw dev` a `/readyz` probed once (databases.md suggests it after a migration) held
 * every restart of the next minute 5 s on the old code. `FW_ENV=development` defaults the delay
 * to 0; an explicit `SERVER_DRAIN_DELAY` still wins. A real `fw dev` (the built CLI).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupDevProjects, devProject, DevRun, edit, htmxApp, requireBuild } from './helpers.js';

let root: string;

beforeAll(() => {
  requireBuild();
});

afterAll(() => cleanupDevProjects());

async function restartAfterProbe(ini: string): Promise<string> {
  root = devProject(htmxApp({ ini: `SECRET_KEY = dev-loop-test-secret\n${ini}` }));
  const dev = await DevRun.start(root, ['dev']);
  try {
    await dev.waitForBoot();
    expect((await fetch(`${dev.base}/readyz`)).status).toBe(200);
    edit(root, 'fluid/app.ts', "{ title: 'devapp' }", "{ title: 'edited' }");
    await dev.waitForBoot(2);
    expect(await (await fetch(`${dev.base}/`)).text()).toContain('edited');
    return dev.output;
  } finally {
    expect(await dev.stop()).toBe(0);
  }
}

describe('fw dev restarts without the drain delay', () => {
  it('after a readiness probe, the old app stops at once', async () => {
    const output = await restartAfterProbe('');
    expect(output).toContain('fw dev: fluid/app.ts changed, restarting');
    expect(output).not.toContain('draining:');
  }, 120_000);

  it('an explicit SERVER_DRAIN_DELAY still drains', async () => {
    const output = await restartAfterProbe('SERVER_DRAIN_DELAY = 1\n');
    expect(output).toContain('draining: readiness answers 503; serving 1 s more');
  }, 120_000);
});
