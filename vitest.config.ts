import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Unit tests run against the TypeScript sources, so they need no build. The end-to-end tests
// install generated apps against the built packages (`npm run build` runs first in `npm test`).
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@fw\/schemas$/, replacement: here('./schemas/src/index.ts') },
      { find: /^@fw\/kernel$/, replacement: here('./runtime-kernel/src/index.ts') },
      { find: /^@fw\/kernel\/(.*)$/, replacement: here('./runtime-kernel/src/$1/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: keep parallelism modest so timing-sensitive tests stay honest.
    maxWorkers: 2,
  },
});
