import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { REPO, tempDir } from './helpers.js';

const FW_BIN = path.join(REPO, 'generators/dist/bin/fw.js');
const CREATE_BIN = path.join(REPO, 'generators/dist/bin/create-fw-app.js');
const WATCHED = ['prettier', 'node-plop', 'ts-morph', 'typescript', 'gettext-parser', 'zod'];

beforeAll(() => {
  if (!existsSync(FW_BIN)) throw new Error(`${FW_BIN} is missing: run "npm run build" first (npm test does).`);
});

/** Runs a built binary with a module-resolution hook that logs every import of prettier, node-plop or ts-morph. */
async function loadedBy(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const dir = await tempDir('fw-lazy-');
  const log = path.join(dir, 'loaded.log');
  const hooks = path.join(dir, 'hooks.mjs');
  const register = path.join(dir, 'register.mjs');
  await writeFile(log, '');
  await writeFile(
    hooks,
    `import { appendFileSync } from 'node:fs';\n` +
      `const watched = ${JSON.stringify(WATCHED)};\n` +
      `export async function resolve(specifier, context, next) {\n` +
      // Bare specifiers, and prettier's entry as the formatter worker imports it (by file URL).
      `  const name = watched.find((w) => specifier === w || specifier.includes('/node_modules/' + w + '/'));\n` +
      `  if (name) appendFileSync(${JSON.stringify(log)}, name + '\\n');\n` +
      `  return next(specifier, context);\n}\n`,
  );
  await writeFile(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const result = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return [...new Set((await readFile(log, 'utf8')).split('\n').filter(Boolean))].sort();
}

test('create-fw-app --yes and fw create app load none of prettier, node-plop, ts-morph, typescript; fw generate loads prettier, zod and the i18n render only on a cache miss', async () => {
  const cwd = await tempDir();
  expect(await loadedBy(CREATE_BIN, ['proj', '--yes'], cwd)).toEqual(['zod']);
  // Right after create, every render is in the format cache: nothing heavy is loaded.
  expect(await loadedBy(FW_BIN, ['generate'], path.join(cwd, 'proj'))).toEqual([]);
  // Without the cache it formats every render with prettier (and validates fw.json), and still never loads ts-morph.
  expect(await loadedBy(FW_BIN, ['generate'], path.join(cwd, 'proj'), { FW_CACHE: 'off' })).toEqual(['prettier', 'zod']);
  expect(await loadedBy(FW_BIN, ['create', 'app', 'staging'], path.join(cwd, 'proj'))).toEqual(['zod']);
  // With locales on, the first run renders the typed modules; a no-op run after it reuses them
  // (no gettext-parser, no typesafe-i18n generator) and validates nothing again (no zod).
  const config = path.join(cwd, 'proj/fw.json');
  const json = JSON.parse(await readFile(config, 'utf8'));
  json.config.I18N_SUPPORTED_LOCALES = ['en', 'fr'];
  await writeFile(config, `${JSON.stringify(json, null, 2)}\n`);
  expect(await loadedBy(FW_BIN, ['generate'], path.join(cwd, 'proj'))).toEqual(['gettext-parser', 'prettier', 'zod']);
  expect(await loadedBy(FW_BIN, ['generate'], path.join(cwd, 'proj'))).toEqual([]);
  expect(await loadedBy(FW_BIN, ['--help'], cwd)).toEqual([]);
  expect(await loadedBy(FW_BIN, ['run', '--help'], cwd)).toEqual([]);
}, 30_000);
