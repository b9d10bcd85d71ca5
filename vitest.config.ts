import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** The tests that check what a user gets: they install fw from the local registry (docs/testing.md). */
const RELEASE = ['test/e2e/**/*.test.ts', 'test/release/**/*.test.ts'];

// Unit tests run against the TypeScript sources, so they need no build. The release project
// packs the built packages (`npm run build` runs first in `npm test`) and publishes them to ONE
// local registry per run (its globalSetup), which every one of its test files installs from.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@fw\/schemas$/, replacement: here('./schemas/src/index.ts') },
      { find: /^@fw\/schemas\/suggest$/, replacement: here('./schemas/src/suggest.ts') },
      { find: /^@fw\/kernel$/, replacement: here('./runtime-kernel/src/index.ts') },
      { find: /^@fw\/kernel\/(.*)$/, replacement: here('./runtime-kernel/src/$1/index.ts') },
    ],
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: keep parallelism modest so timing-sensitive tests stay honest.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...RELEASE] },
      },
      {
        extends: true,
        test: {
          name: 'release',
          include: RELEASE,
          globalSetup: ['test/support/registry-setup.ts'],
          // Each file creates and installs real apps: minutes, not seconds.
          testTimeout: 600_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
