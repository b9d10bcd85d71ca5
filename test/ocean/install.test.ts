import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installAdditives,
  OceanError,
  oceanInstall,
  type InstalledAdditive,
  type OceanIndex,
} from '../../generators/src/ocean/index.ts';
import { serve, type TestServer } from './http.ts';
import { TestNpmRegistry } from './npm-registry.ts';
import { treeOf } from './tree.ts';

const additiveSource = (name: string, pkg: string, version: string): string => `// An fw Additive package: its default export is an Additive of the app's own kernel.
import { Additive } from '@fw/kernel';

const additive = new Additive(${JSON.stringify(name)}, { root: new URL('.', import.meta.url) });
additive.app.get('index', '/', () => 'hello from ${pkg} ${version}');
export default additive;
`;

/** The kernel is a peer: the app provides it (npm must not fetch it from the registry). */
const KERNEL_PEER = {
  peerDependencies: { '@fw/kernel': '*' },
  peerDependenciesMeta: { '@fw/kernel': { optional: true } },
};

/** The Ocean index served on its own port; the packages come from the npm registry. */
const OCEAN: OceanIndex = {
  additives: [
    { id: 'hello', package: 'fw-additive-hello', description: 'Says hello', versions: ['1.0.0', '1.1.0-rc.1'] },
    { id: 'greet', package: '@fwtest/additive-greet', description: 'Greets (scoped package)', versions: ['1.0.0'] },
    { id: 'ghost', package: 'fw-additive-ghost', description: 'Listed, but its npm package 404s', versions: ['1.0.0'] },
  ],
  bundles: [{ id: 1, name: 'both', members: ['hello', 'greet'] }],
};

let work: string;
let npmRegistry: TestNpmRegistry;
let ocean: TestServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'fw-ocean-install-'));
  npmRegistry = await new TestNpmRegistry(join(work, 'registry')).start();
  // fw-shared@1.0.0 is `latest`, so a first install takes it; greet needs ^1.1.0, which makes npm
  // REPLACE the hoisted 1.0.0 — the case a rollback must undo by reinstalling.
  await npmRegistry.publish({ name: 'fw-shared', version: '1.0.0', source: 'export const shared = "1.0.0";\n' });
  await npmRegistry.publish({ name: 'fw-shared', version: '1.1.0', source: 'export const shared = "1.1.0";\n' });
  npmRegistry.tag('fw-shared', '1.0.0');
  for (const version of ['1.0.0', '1.1.0-rc.1']) {
    await npmRegistry.publish({
      name: 'fw-additive-hello',
      version,
      dependencies: { 'fw-shared': '^1.0.0' },
      extra: KERNEL_PEER,
      source: additiveSource('hello', 'fw-additive-hello', version),
    });
  }
  npmRegistry.tag('fw-additive-hello', '1.0.0');
  await npmRegistry.publish({
    name: '@fwtest/additive-greet',
    version: '1.0.0',
    dependencies: { 'fw-shared': '^1.1.0' },
    extra: KERNEL_PEER,
    source: additiveSource('greet', '@fwtest/additive-greet', '1.0.0'),
  });
  ocean = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(OCEAN));
  });
  env = {
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_update_notifier: 'false',
    FW_OCEAN_URL: `${ocean.base}/index.json`,
  };
}, 120_000);

afterAll(async () => {
  await npmRegistry?.close();
  await ocean?.close();
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

let projects = 0;
async function newProject(): Promise<string> {
  const root = join(work, `project-${++projects}`);
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'package.json'), `${JSON.stringify({ name: `app-${projects}`, version: '0.0.0', private: true, type: 'module' }, null, 2)}\n`);
  await writeFile(join(root, 'fw.json'), `${JSON.stringify({ name: `app-${projects}`, additives: [] }, null, 2)}\n`);
  return root;
}

const readJson = async (path: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;

const hello = { id: 'hello', package: 'fw-additive-hello', version: '1.0.0', spec: 'fw-additive-hello@1.0.0' };
const greet = { id: 'greet', package: '@fwtest/additive-greet', version: '1.0.0', spec: '@fwtest/additive-greet@1.0.0' };
const ghost = { id: 'ghost', package: 'fw-additive-ghost', version: '1.0.0', spec: 'fw-additive-ghost@1.0.0' };

describe('installAdditives against a local npm registry', { timeout: 180_000 }, () => {
  it('installs the exact version into node_modules and package.json, then calls register', async () => {
    const root = await newProject();
    const registered: InstalledAdditive[][] = [];
    const installed = await installAdditives({
      projectRoot: root,
      resolved: [hello],
      registry: npmRegistry.url,
      env,
      register: async (list) => {
        registered.push(list);
      },
    });
    expect(installed).toEqual([{ ...hello, directory: join(root, 'node_modules/fw-additive-hello') }]);
    expect(registered).toEqual([installed]);
    expect(existsSync(join(root, 'node_modules/fw-additive-hello/index.js'))).toBe(true);
    expect((await readJson(join(root, 'node_modules/fw-additive-hello/package.json'))).version).toBe('1.0.0');
    expect((await readJson(join(root, 'package.json'))).dependencies).toEqual({ 'fw-additive-hello': '1.0.0' });
    expect((await readJson(join(root, 'node_modules/fw-shared/package.json'))).version).toBe('1.0.0');
    expect(existsSync(join(root, 'package-lock.json'))).toBe(true);
    expect(npmRegistry.requests).toContain('/fw-additive-hello');
  });

  it('a failed npm install (one package 404s) leaves package.json, the lockfile and node_modules exactly as before', async () => {
    const root = await newProject();
    await installAdditives({ projectRoot: root, resolved: [hello], registry: npmRegistry.url, env });
    const before = await treeOf(root);
    expect(before.get('node_modules/fw-additive-hello/package.json')).toBeDefined();

    let registerCalled = false;
    const error = await installAdditives({
      projectRoot: root,
      resolved: [greet, ghost],
      registry: npmRegistry.url,
      env,
      register: async () => {
        registerCalled = true;
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OceanError);
    expect((error as Error).message).toMatch(/^fw ocean install @fwtest\/additive-greet@1\.0\.0 fw-additive-ghost@1\.0\.0 failed; the project was left as it was\./);
    expect((error as Error).message).toMatch(/npm install --save-exact .* exited with code 1:[\s\S]*404/);
    expect(npmRegistry.requests).toContain('/fw-additive-ghost');
    expect(registerCalled).toBe(false);
    expect(await treeOf(root)).toEqual(before);
  });

  it('a failed install in a project that never had node_modules leaves no node_modules and no lockfile', async () => {
    const root = await newProject();
    const before = await treeOf(root);
    await expect(
      installAdditives({ projectRoot: root, resolved: [hello, ghost], registry: npmRegistry.url, env }),
    ).rejects.toThrow(OceanError);
    expect(await treeOf(root)).toEqual(before);
    expect(existsSync(join(root, 'node_modules'))).toBe(false);
    expect(existsSync(join(root, 'package-lock.json'))).toBe(false);
  });

  it('when register throws, the successful npm install is rolled back, even a replaced shared dependency', async () => {
    const root = await newProject();
    await installAdditives({ projectRoot: root, resolved: [hello], registry: npmRegistry.url, env });
    const before = await treeOf(root);

    let sawShared: unknown;
    const error = await installAdditives({
      projectRoot: root,
      resolved: [greet],
      registry: npmRegistry.url,
      env,
      register: async ([installed]) => {
        // npm really did install: the scoped package is there and fw-shared was replaced by 1.1.0
        expect(installed?.directory).toBe(join(root, 'node_modules/@fwtest/additive-greet'));
        sawShared = (await readJson(join(root, 'node_modules/fw-shared/package.json'))).version;
        await writeFile(join(root, 'fw.json'), '{"half": "written"}');
        throw new Error('codemod could not find fluid/app.ts');
      },
    }).catch((e: unknown) => e);
    expect(sawShared).toBe('1.1.0');
    expect(error).toBeInstanceOf(OceanError);
    expect((error as Error).message).toMatch(/registering greet failed: codemod could not find fluid\/app\.ts/);
    expect(await treeOf(root)).toEqual(before);
    expect(existsSync(join(root, 'node_modules/@fwtest'))).toBe(false);
  });

  it('refuses a folder without package.json', async () => {
    const root = join(work, 'empty');
    await mkdir(root, { recursive: true });
    await expect(installAdditives({ projectRoot: root, resolved: [hello], registry: npmRegistry.url, env })).rejects.toThrow(
      `no package.json in ${root}: fw ocean install runs in a project`,
    );
  });
});

describe('oceanInstall: index on one port, packages from the npm registry on another', { timeout: 180_000 }, () => {
  it('installs a bundle plus a pin, with --pre, and registers both', async () => {
    const root = await newProject();
    let out = '';
    const registered: string[] = [];
    const installed = await oceanInstall(['-b', '000001', 'hello==1.1.0-rc.1', '--pre'], {
      projectRoot: root,
      env,
      registry: npmRegistry.url,
      print: (text) => (out += text),
      register: async (list) => {
        registered.push(...list.map((i) => i.id));
      },
    });
    expect(installed.map((i) => i.spec)).toEqual(['fw-additive-hello@1.1.0-rc.1', '@fwtest/additive-greet@1.0.0']);
    expect(registered).toEqual(['hello', 'greet']);
    expect(out).toBe('installed hello (fw-additive-hello@1.1.0-rc.1)\ninstalled greet (@fwtest/additive-greet@1.0.0)\n');
    expect((await readJson(join(root, 'package.json'))).dependencies).toEqual({
      '@fwtest/additive-greet': '1.0.0',
      'fw-additive-hello': '1.1.0-rc.1',
    });
  });

  it('an unknown id fails before npm runs, and the project is untouched', async () => {
    const root = await newProject();
    const before = await treeOf(root);
    await expect(oceanInstall(['helo'], { projectRoot: root, env, registry: npmRegistry.url })).rejects.toThrow(
      /unknown Additive "helo" in argument "helo" \(did you mean hello\?\)/,
    );
    expect(await treeOf(root)).toEqual(before);
  });
});
