/**
 * vitest globalSetup of the `release` test project (test/e2e, test/release): ONE local registry
 * per run, with every fw package of this checkout's build published once, shared by every test
 * file (they read it with `inject('fwRegistry')`). Its storage stays warm for the whole run.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { publishAll, REPO, startRegistry, type PublishedPackage } from './registry.js';

/** What the tests get: the registry's URL and folder, a user's environment, and what was published. */
export interface ProvidedRegistry {
  url: string;
  dir: string;
  env: Record<string, string>;
  published: PublishedPackage[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    fwRegistry: ProvidedRegistry;
  }
}

/** Build outputs the published packages are packed from. */
const BUILT = ['runtime-kernel/dist/index.js', 'generators/dist/bin/fw.js', 'generators/blueprints/project', 'generators/create-fw-app/dist/index.js', 'runtime-kernel/additives/health/dist/index.js'];

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const missing = BUILT.filter((file) => !existsSync(path.join(REPO, file)));
  if (missing.length > 0) throw new Error(`missing build output ${missing.join(', ')}: run "npm run build" first (npm test does).`);
  const registry = await startRegistry();
  try {
    const published = await publishAll(registry);
    const env = Object.fromEntries(Object.entries(registry.env).filter((e): e is [string, string] => typeof e[1] === 'string'));
    // The run's npm index is new (startRegistry), so what it caches is this run's registry: every
    // install after the first reads the metadata it already has instead of asking verdaccio again
    // for each package. A test that publishes during the run (upgrade.test.ts) asks with
    // --prefer-online for what it published.
    env.npm_config_prefer_offline = 'true';
    project.provide('fwRegistry', { url: registry.url, dir: registry.dir, env, published });
  } catch (error) {
    await registry.close();
    throw error;
  }
  return () => registry.close();
}
