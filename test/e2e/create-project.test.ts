/**
 * End to end, as a user with only the local registry (test/support/registry-setup.ts): `npm create
 * fw-app@latest e2e-app -- --yes`, `npm install`, type-check, the app's own tests, `fw run` boots
 * it and SIGTERM shuts it down, `fw run --watch` restarts on edits, and bad input is explained.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '../support/process.js';
import { fwVersion, user, workDir } from '../release/helpers.js';

const as = user();
const sh = (command: string, args: string[], cwd: string) => as.run(command, args, cwd);
let work = '';
let root = '';

beforeAll(async () => {
  work = await workDir('e2e');
  root = path.join(work, 'e2e-app');
  sh('npm', ['create', 'fw-app@latest', 'e2e-app', '--', '--yes'], work);
  // The test's own shutdown hook, appended to the user-owned app file: proves hooks run on SIGTERM.
  await appendFile(
    path.join(root, 'fluid/app.ts'),
    `\nfluid.onShutdown(async () => {\n  const { writeFile } = await import('node:fs/promises');\n` +
      `  await writeFile(new URL('../shutdown-marker.txt', import.meta.url), 'shutdown hook ran\\n');\n});\n`,
  );
  sh('npm', ['install'], root);
  // create-fw-app wrote a development app config; this test runs the production settings.
  sh('npx', ['fw', 'create', 'app', 'e2e-app', '--force'], root);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

test('the kernel and the CLI come from the registry at the released version, with an app config', async () => {
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  expect(pkg.dependencies['@fw/kernel']).toBe(`^${fwVersion()}`);
  const kernel = JSON.parse(await readFile(path.join(root, 'node_modules/@fw/kernel/package.json'), 'utf8'));
  expect(kernel.version).toBe(fwVersion());
  expect(await readFile(path.join(root, 'app_configs/e2e-app.ini'), 'utf8')).toMatch(/^SECRET_KEY = [0-9a-f]{64}$/m);
});

test('npx tsc --noEmit is clean', () => {
  expect(sh('npx', ['tsc', '--noEmit'], root).stdout).toBe('');
});

test("the app's own npm test passes", () => {
  expect(stripVTControlCharacters(sh('npm', ['test'], root).stdout)).toMatch(/Tests\s+3 passed \(3\)/);
});

test('fw run serves the home page and htmx, and SIGTERM shuts down cleanly with the shutdown hook run', async () => {
  const port = await freePort();
  // `npx fw` runs node_modules/.bin/fw; it is started directly so the signal reaches it (npx does not forward SIGTERM).
  const child = spawn(process.execPath, [path.join(root, 'node_modules/.bin/fw'), 'run', '--port', String(port)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: as.env,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  try {
    const deadline = Date.now() + 30_000;
    while (!output.includes('serving at')) {
      if (child.exitCode !== null) throw new Error(`fw run exited early:\n${output}`);
      if (Date.now() > deadline) throw new Error(`fw run did not start within 30 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(output).toContain(`serving at http://127.0.0.1:${port}`);

    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain('<h1>e2e-app</h1>');
    expect(html).toContain('<script src="/fluid/static/vendor/htmx.min.js"></script>');

    const htmx = await fetch(`http://127.0.0.1:${port}/fluid/static/vendor/htmx.min.js`);
    expect(htmx.status).toBe(200);
    expect(htmx.headers.get('content-type')).toMatch(/javascript/);
    const script = await htmx.text();
    const shipped = await readFile(path.join(root, 'node_modules/htmx.org/dist/htmx.min.js'), 'utf8');
    expect(script).toBe(shipped);

    const fragment = await fetch(`http://127.0.0.1:${port}/hello`);
    expect(await fragment.text()).toMatch(/^Hello from the server/);
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
  }
  const { code, signal } = await exited;
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  expect(await readFile(path.join(root, 'shutdown-marker.txt'), 'utf8')).toBe('shutdown hook ran\n');
}, 60_000);

test('npx fw reaches the CLI from inside the project', () => {
  const result = sh('npx', ['fw', '--help'], root);
  expect(result.stdout).toMatch(/create project[\s\S]*create app[\s\S]*run/);
});

test('fw run --watch restarts the app when fluid/ changes, and stops cleanly on SIGTERM', async () => {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'node_modules/.bin/fw'), 'run', '--watch', '--port', String(port)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: as.env,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (check: () => boolean | Promise<boolean>, what: string): Promise<void> => {
    const deadline = Date.now() + 30_000;
    while (!(await check())) {
      if (child.exitCode !== null) throw new Error(`fw run --watch exited early:\n${output}`);
      if (Date.now() > deadline) throw new Error(`${what} did not happen within 30 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const title = async (): Promise<string> => {
    try {
      const html = await (await fetch(`http://127.0.0.1:${port}/`)).text();
      return /<h1>(.*)<\/h1>/.exec(html)?.[1] ?? '';
    } catch {
      return '';
    }
  };
  try {
    await waitFor(async () => (await title()) === 'e2e-app', 'the first boot');
    const appFile = path.join(root, 'fluid/app.ts');
    const source = await readFile(appFile, 'utf8');
    await writeFile(appFile, source.replace("{ title: 'e2e-app' }", "{ title: 'edited live' }"));
    await waitFor(async () => (await title()) === 'edited live', 'the restart after editing fluid/app.ts');
    expect(output).toContain('fluid/app.ts changed, restarting');
    // Two edits in quick succession: restarts queue up, never two apps on one port.
    await writeFile(appFile, source.replace("{ title: 'e2e-app' }", "{ title: 'first' }"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await writeFile(appFile, source.replace("{ title: 'e2e-app' }", "{ title: 'second' }"));
    await waitFor(async () => (await title()) === 'second', 'the restart after two quick edits');
    expect(output).not.toMatch(/EADDRINUSE|second SIGTERM/);
    await writeFile(appFile, source);
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
}, 90_000);

test('fw run explains a wrong default export and a bad config key, and exits 1', async () => {
  const fwBin = path.join(root, 'node_modules/.bin/fw');
  const appFile = path.join(root, 'fluid/app.ts');
  const configFile = path.join(root, 'fw.json');
  const [app, config] = await Promise.all([readFile(appFile, 'utf8'), readFile(configFile, 'utf8')]);
  try {
    await writeFile(appFile, 'export default { listen() {} };\n');
    const notFluid = spawnSync(process.execPath, [fwBin, 'run', '--port', '0'], { cwd: root, encoding: 'utf8', timeout: 30_000, env: as.env });
    expect(notFluid.status).toBe(1);
    expect(notFluid.stderr).toContain('error: fluid/app.ts must "export default" a Fluid created with @fw/kernel (got an instance of Object)');

    await writeFile(appFile, app);
    const parsed = JSON.parse(config) as { config: Record<string, unknown> };
    parsed.config.APP_FRONTEND = { type: 'htmx', alpine: 'maybe' };
    await writeFile(configFile, JSON.stringify(parsed));
    const badConfig = spawnSync(process.execPath, [fwBin, 'run', '--port', '0'], { cwd: root, encoding: 'utf8', timeout: 30_000, env: as.env });
    expect(badConfig.status).toBe(1);
    expect(badConfig.stderr).toMatch(/APP_FRONTEND\.alpine: got "maybe"/);
  } finally {
    await Promise.all([writeFile(appFile, app), writeFile(configFile, config)]);
  }
}, 90_000);
