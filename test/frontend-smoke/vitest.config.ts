/**
 * The slow frontend smoke target: `npx vitest run --config test/frontend-smoke/vitest.config.ts`.
 * Same aliases as the main config; only the smoke tests; one worker (the test installs and builds).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

// The base config's test projects are left out: this target is one project of its own.
const { projects: _projects, ...test } = base.test ?? {};

export default defineConfig({
  ...base,
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: { ...test, include: ['test/frontend-smoke/**/*.test.ts'], maxWorkers: 1, testTimeout: 900_000, hookTimeout: 900_000 },
});
