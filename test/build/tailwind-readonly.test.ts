/**
 * FW_TAILWIND in a read-only deployment: `fw build` compiles every raw stylesheet into the
 * sources (as the boot would), so the built app started with its files read-only boots, serves
 * the compiled stylesheet and writes nothing; a compiled file that is out of date and cannot be
 * written stops the boot with one error line naming it and the way out.
 *
 * The files are made read-only for real: as root (which ignores permission bits) through a
 * read-only bind mount in a user and mount namespace of its own (`unshare -rm`), giving EROFS;
 * otherwise with `chmod -R a-w`, giving EACCES.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { run as build } from '../../generators/src/commands/build.js';
import { testIO } from '../generators/helpers.js';
import { fw, linkFromCheckout } from '../generators/project-helpers.js';
import { freePort } from '../support/process.js';

let work = '';
let root = '';
let buildOut = '';
const COMPILED = 'fluid/static/tailwind.css';
const SECRET = 'k'.repeat(64);

const isRoot = process.getuid?.() === 0;
/** As root: whether this machine lets a process mount in a namespace of its own. */
const canUnshare = isRoot && spawnSync('unshare', ['-rm', 'sh', '-c', 'mount --bind -o ro "$0" "$0"', tmpdir()]).status === 0;

/** The argv that runs `argv` in `root` with the whole project folder read-only. */
function readOnly(argv: string[]): string[] {
  if (isRoot) return ['unshare', '-rm', 'sh', '-c', 'mount --bind -o ro "$0" "$0" && exec "$@"', root, ...argv];
  return argv;
}

/** Makes the project folder read-only without a mount (a non-root user: permission bits hold). */
function setWritable(writable: boolean): void {
  if (isRoot) return;
  spawnSync('chmod', ['-R', writable ? 'u+w' : 'a-w', root]);
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'fw-tw-ro-'));
  expect((await fw(work, 'create', 'project', 'shop', '--yes')).code).toBe(0);
  root = path.join(work, 'shop');
  await linkFromCheckout(root, ['typescript', '@types/node', '@fw/kernel', 'tailwindcss', '@tailwindcss/node', '@tailwindcss/oxide']);
  const fwJson = JSON.parse(await readFile(path.join(root, 'fw.json'), 'utf8')) as { config: Record<string, unknown> };
  fwJson.config.FW_TAILWIND = true;
  await writeFile(path.join(root, 'fw.json'), JSON.stringify(fwJson, null, 2));
  await writeFile(path.join(root, 'fluid/static/tailwind_raw.css'), '@import "tailwindcss";\n');
  const index = path.join(root, 'fluid/templates/index.html');
  await writeFile(index, (await readFile(index, 'utf8')).replace('<body', '<body class="bg-emerald-700"'));
  const io = testIO(root);
  expect(await build([], io)).toBe(0);
  buildOut = io.out();
  await rm(path.join(root, 'app_configs'), { recursive: true }); // a server has no ini
}, 120_000);

afterAll(async () => {
  setWritable(true);
  await rm(work, { recursive: true, force: true });
});

test('fw build compiles the raw stylesheet into fluid/static/tailwind.css and says so', () => {
  expect(readFileSync(path.join(root, COMPILED), 'utf8')).toContain('.bg-emerald-700');
  expect(buildOut).toContain(`compiled Tailwind (${COMPILED})`);
});

test.skipIf(isRoot && !canUnshare)('the built app boots with its files read-only, serves the compiled stylesheet and writes nothing', async () => {
  const before = statSync(path.join(root, COMPILED));
  const port = await freePort();
  const { PATH, HOME } = process.env;
  setWritable(false);
  const [command, ...args] = readOnly([process.execPath, 'dist/fluid/server.js', '--port', String(port)]);
  const server = spawn(command!, args, { cwd: root, env: { PATH, HOME, SECRET_KEY: SECRET }, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let out = '';
    for (const stream of [server.stdout, server.stderr]) stream.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      server.stdout.on('data', () => /serving at http/.test(out) && resolve());
      server.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });
    const css = await fetch(`http://127.0.0.1:${port}/static/tailwind.css`);
    expect(css.status).toBe(200);
    expect(await css.text()).toContain('.bg-emerald-700');
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toContain('<link rel="stylesheet" href="/static/tailwind.css">');
  } finally {
    server.kill('SIGTERM');
    await once(server, 'exit');
    setWritable(true);
  }
  const after = statSync(path.join(root, COMPILED));
  expect({ ino: after.ino, mtimeMs: after.mtimeMs }).toEqual({ ino: before.ino, mtimeMs: before.mtimeMs });
});

test.skipIf(isRoot && !canUnshare)('an out-of-date compiled stylesheet on read-only files: one error line naming it and the way out', () => {
  const compiled = path.join(root, COMPILED);
  const good = readFileSync(compiled, 'utf8');
  writeFileSync(compiled, '/* compiled before the template changed */\n');
  const { PATH, HOME } = process.env;
  setWritable(false);
  const [command, ...args] = readOnly([process.execPath, 'dist/fluid/server.js', '--port', '0']);
  const result = spawnSync(command!, args, { cwd: root, env: { PATH, HOME, SECRET_KEY: SECRET }, encoding: 'utf8', timeout: 60_000 });
  setWritable(true);
  writeFileSync(compiled, good);
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(
    new RegExp(
      `^error: FW_TAILWIND: ${compiled.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is out of date and cannot be written \\((EROFS|EACCES)\\)\\. ` +
        'Compile the stylesheets while the files are still writable: `npm run build` \\(fw build\\) does it; [^\\n]*\\n$',
    ),
  );
});
