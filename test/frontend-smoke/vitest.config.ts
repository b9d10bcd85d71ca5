/**
 * The slow frontend smoke target: `npx vitest run --config test/frontend-smoke/vitest.config.ts`.
 * Same aliases as the main config; only the smoke tests; one worker (the test installs and builds).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

export default defineConfig({
  ...base,
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: { ...base.test, include: ['test/frontend-smoke/**/*.test.ts'], maxWorkers: 1, testTimeout: 900_000, hookTimeout: 900_000 },
});
