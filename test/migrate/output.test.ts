/**
 * What `fw migrate` prints: each bind's Prisma output in the order Prisma wrote it. The project's
 * `node_modules/.bin/prisma` here is a small script that writes like Prisma does (its preamble on
 * standard error, then its results on standard output), so no database is needed.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { expect, test } from 'vitest';
import { run } from '../../generators/src/commands/index.js';
import { editConfig, fw, linkKernel, newProject } from '../generators/project-helpers.js';

const PRISMA = `#!/bin/sh
# argv: migrate status --config prisma/<bind>/prisma.config.ts
echo "Loaded Prisma config from $4." >&2
echo "status of $4"
`;

test('fw migrate prints each bind\'s Prisma preamble before its results, bind after bind', async () => {
  const root = await newProject('shop');
  await editConfig(root, (json) => {
    json.config.DATABASE_BINDS = { main: 'file:./var/main.db', reports: 'file:./var/reports.db' };
  });
  expect((await fw(root, 'migrate', 'init')).code).toBe(0);
  await mkdir(path.join(root, 'node_modules/.bin'), { recursive: true });
  await writeFile(path.join(root, 'node_modules/.bin/prisma'), PRISMA);
  await chmod(path.join(root, 'node_modules/.bin/prisma'), 0o755);
  await linkKernel(root);

  let printed = '';
  const stream = (): PassThrough => new PassThrough().on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const io = { cwd: root, stdin: new PassThrough(), stdout: stream(), stderr: stream(), env: { ...process.env } };
  expect(await run(['migrate', 'status'], io)).toBe(0);
  expect(printed.trim().split('\n')).toEqual([
    'Loaded Prisma config from prisma/main/prisma.config.ts.',
    'status of prisma/main/prisma.config.ts',
    'Loaded Prisma config from prisma/reports/prisma.config.ts.',
    'status of prisma/reports/prisma.config.ts',
  ]);
});
