/**
 * The README's "Repository layout" table names folders a newcomer then looks for: each must exist.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

test("every folder of the README's repository layout exists", () => {
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const table = readme.split('## Repository layout')[1]?.split('\n## ')[0] ?? '';
  const folders = [...table.matchAll(/^\| `([^`]+\/)` \|/gm)].map((m) => m[1]!);
  expect(folders).toContain('runtime-kernel/');
  expect(folders.filter((folder) => !existsSync(path.join(REPO, folder)))).toEqual([]);
});
