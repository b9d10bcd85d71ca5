/**
 * The vitest `globalSetup` of a generated app (`globalSetup: ['@fw/cli/vitest-setup']` in its
 * `vitest.config.ts`): before any test file loads, it generates each Prisma client that is missing
 * or older than its schema, as `fw test` (`npm test`) does, so `npx vitest` run directly works on
 * a fresh clone too. A project without `prisma/` pays one `existsSync`: nothing else is loaded.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Set by `fw test` for the vitest it runs, to the project root whose clients it has just checked:
 * the setup then does not check (and warn) a second time.
 */
export const CLIENTS_CHECKED_ENV = 'FW_PRISMA_CLIENTS_CHECKED';

/** What vitest passes a global setup (its `TestProject`); only the root is read. */
export interface SetupProject {
  config: { root: string };
}

/**
 * Generates the project's missing or stale Prisma clients (lines on stderr say which and why,
 * `vitest: generated the Prisma client of prisma/main (generated/prisma/main was missing)`);
 * without the Prisma CLI it warns and lets the tests run, as `fw test` does.
 */
export default async function setup(project?: SetupProject): Promise<void> {
  const root = project?.config.root ?? process.cwd();
  if (process.env[CLIENTS_CHECKED_ENV] === root || !existsSync(path.join(root, 'prisma'))) return;
  const { ensureClients } = await import('./client.js');
  await ensureClients(root, { cwd: root, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }, 'vitest');
}
