import { buildFrontend } from '@fw/kernel/testing';

// vitest's globalSetup (vitest.config.ts): `npm run check` and `npm run build` over the frontend
// workspaces, once before every test file.
export default async function setup(): Promise<void> {
  await buildFrontend();
}
