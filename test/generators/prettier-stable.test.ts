/**
 * create-fw-app runs no formatter, so what it renders must already be what prettier writes under
 * the project's `.prettierrc.json`: for every flag combination, a `fw generate` right after create
 * with the format cache off (every render formatted by prettier) finds nothing to change.
 * create-vite's template files are copied as they are and never formatted.
 */
import path from 'node:path';
import { VITE_FRAMEWORKS } from '@fw/schemas';
import { describe, expect, test } from 'vitest';
import { run } from '../../generators/src/commands/index.js';
import { tempDir, testIO } from './helpers.js';

const COMBINATIONS: string[][] = [
  ['--surface', 'none'],
  ['--surface', 'htmx', '--no-alpine'],
  ['--surface', 'htmx', '--alpine'],
  ...VITE_FRAMEWORKS.filter((f) => f !== 'qwik').flatMap((f) => [
    ['--framework', f, '--no-typescript'],
    ['--framework', f, '--typescript'],
  ]),
];

describe('the create render is prettier-stable', () => {
  test.each(COMBINATIONS.map((flags) => ({ flags, shown: flags.join(' ') })))('create-fw-app $shown, then fw generate with prettier on every file: nothing to change', async ({ flags }) => {
    const cwd = await tempDir();
    expect(await run(['create', 'project', 'stable', '--yes', ...flags], testIO(cwd))).toBe(0);
    const io = testIO(path.join(cwd, 'stable'));
    io.env.FW_CACHE = 'off';
    expect(await run(['generate'], io)).toBe(0);
    expect(io.out()).toMatch(/^\d+ files: \d+ unchanged\n$/);
  }, 60_000);
});
