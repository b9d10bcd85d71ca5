import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAdditive } from '../../generators/src/codemods/index.ts';
import { oceanInstall, oceanInstallCommand, type InstalledAdditive, type OceanIndex } from '../../generators/src/ocean/index.ts';
import { serve, type TestServer } from './http.ts';
import { TestNpmRegistry } from './npm-registry.ts';
import { treeOf } from './tree.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const KERNEL = join(REPO, 'runtime-kernel');
const TSX = join(REPO, 'node_modules/.bin/tsx');

const OCEAN: OceanIndex = {
  additives: [{ id: 'hello', package: 'fw-additive-hello', description: 'Says hello', versions: ['1.0.0'] }],
  bundles: [{ id: 7, name: 'hi', members: ['hello'] }],
};

const APP = `import { Fluid } from '@fw/kernel';

export const fluid = new Fluid({ root: new URL('..', import.meta.url) });
fluid.app.get('home', '/', () => 'home');
export default fluid;
`;

const SERVER = `import fluid from './fluid/app.ts';

const server = await fluid.listen(0, '127.0.0.1');
const address = server.address();
console.log('LISTENING ' + (typeof address === 'object' && address !== null ? address.port : ''));
process.on('SIGTERM', () => void fluid.close().then(() => process.exit(0)));
`;

/**
 * What the lead wires as `register`: the `registerAdditive` codemod on fluid/app.ts (import the
 * package, `fluid.additive(...)`) and the id appended to fw.json `additives`.
 */
async function register(root: string, installed: InstalledAdditive[]): Promise<void> {
  const appPath = join(root, 'fluid/app.ts');
  let text = await readFile(appPath, 'utf8');
  for (const additive of installed) {
    text = (await registerAdditive({ path: 'fluid/app.ts', text }, additive.id, { importPath: additive.package })).text;
  }
  const fw = JSON.parse(await readFile(join(root, 'fw.json'), 'utf8')) as { additives?: string[] };
  fw.additives = [...new Set([...(fw.additives ?? []), ...installed.map((i) => i.id)])];
  await writeFile(appPath, text);
  await writeFile(join(root, 'fw.json'), `${JSON.stringify(fw, null, 2)}\n`);
}

let work: string;
let npmRegistry: TestNpmRegistry;
let ocean: TestServer;
let child: ChildProcess | undefined;

beforeAll(async () => {
  if (!existsSync(join(KERNEL, 'dist/index.js'))) {
    throw new Error(`${KERNEL}/dist/index.js is missing: run \`npm run build\` first (the booted app loads the built kernel)`);
  }
  work = await mkdtemp(join(tmpdir(), 'fw-ocean-boot-'));
  npmRegistry = await new TestNpmRegistry(join(work, 'registry')).start();
  await npmRegistry.publish({
    name: 'fw-additive-hello',
    version: '1.0.0',
    extra: { peerDependencies: { '@fw/kernel': '*' }, peerDependenciesMeta: { '@fw/kernel': { optional: true } } },
    source: `import { Additive } from '@fw/kernel';

const additive = new Additive('hello', { root: new URL('.', import.meta.url) });
additive.app.get('index', '/', () => 'hello from fw-additive-hello 1.0.0');
export default additive;
`,
  });
  ocean = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(OCEAN));
  });
}, 120_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  await npmRegistry?.close();
  await ocean?.close();
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

async function newApp(name: string): Promise<string> {
  const root = join(work, name);
  await mkdir(join(root, 'fluid'), { recursive: true });
  await writeFile(join(root, 'package.json'), `${JSON.stringify({ name, version: '0.0.0', private: true, type: 'module' }, null, 2)}\n`);
  await writeFile(join(root, 'fw.json'), `${JSON.stringify({ name, additives: [] }, null, 2)}\n`);
  await writeFile(join(root, 'fluid/app.ts'), APP);
  await writeFile(join(root, 'server.ts'), SERVER);
  return root;
}

const env = (): NodeJS.ProcessEnv => ({
  npm_config_cache: join(work, 'npm-cache'),
  npm_config_update_notifier: 'false',
  FW_OCEAN_URL: `${ocean.base}/index.json`,
});

describe('fw ocean install → registered → booted app serves the Additive', { timeout: 180_000 }, () => {
  it('installs bundle 000007, registers it with the codemod, and the app answers on /hello/', async () => {
    const root = await newApp('booted');
    // Exactly what `fw ocean install -b 000007` runs, from a subfolder of the project.
    const stdout = new PassThrough();
    let printed = '';
    stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    const run = oceanInstallCommand(register);
    const io = { cwd: join(root, 'fluid'), stdin: new PassThrough(), stdout, stderr: new PassThrough(), env: { ...process.env, ...env(), npm_config_registry: npmRegistry.url } };
    expect(await run(['-b', '000007'], io)).toBe(0);
    expect(printed).toBe('installed hello (fw-additive-hello@1.0.0)\n');
    const app = await readFile(join(root, 'fluid/app.ts'), 'utf8');
    expect(app).toContain("import hello from 'fw-additive-hello'");
    expect(app).toMatch(/fluid\.additive\(hello\);/);
    expect(JSON.parse(await readFile(join(root, 'fw.json'), 'utf8'))).toMatchObject({ additives: ['hello'] });

    // The app provides the kernel (a generated app depends on it); link this checkout's build.
    await mkdir(join(root, 'node_modules/@fw'), { recursive: true });
    await symlink(KERNEL, join(root, 'node_modules/@fw/kernel'), 'dir');

    child = spawn(TSX, ['server.ts'], {
      cwd: root,
      env: { ...process.env, SECRET_KEY: 'ocean-boot-test-secret-0123456789abcdef', FW_LOG_LEVEL: 'error' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const port = await new Promise<number>((done, fail) => {
      let out = '';
      let err = '';
      child?.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const m = /LISTENING (\d+)/.exec(out);
        if (m !== null) done(Number(m[1]));
      });
      child?.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
      child?.on('exit', (code) => fail(new Error(`the app exited with ${code} before listening:\n${out}${err}`)));
    });
    const hello = await fetch(`http://127.0.0.1:${port}/hello/`);
    expect(hello.status).toBe(200);
    expect(await hello.text()).toBe('hello from fw-additive-hello 1.0.0');
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('home');
    child.kill('SIGTERM');
  });

  it('when registration fails half-way, fluid/app.ts, fw.json and node_modules are restored', async () => {
    const root = await newApp('half-registered');
    const before = await treeOf(root);
    await expect(
      oceanInstall(['hello'], {
        projectRoot: root,
        env: env(),
        registry: npmRegistry.url,
        print: () => undefined,
        register: async (list) => {
          await register(root, list);
          throw new Error('engine refused to write .fw/record.json');
        },
      }),
    ).rejects.toThrow(/registering hello failed: engine refused to write \.fw\/record\.json/);
    expect(await treeOf(root)).toEqual(before);
  });
});
