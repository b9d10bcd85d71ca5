/**
 * A real local npm registry for the tests and benchmarks that check what a user gets: verdaccio
 * (installed by `.ci/setup` into test/support/registry/, its own package.json and lockfile) on a
 * loopback port, with the configured registry as its uplink for everything fw does not publish,
 * and a throwaway storage folder. fw's packages are packed from this checkout and published to it.
 *
 *   const registry = await startRegistry();
 *   await publishAll(registry);                       // every fw package at the checkout's version
 *   sh('npm', ['create', 'fw-app@latest', 'my-app', '--', '--yes'], dir, { env: registry.env });
 *   await registry.close();
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './process.js';

/** The fw checkout. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** verdaccio's tool folder (`.ci/setup` runs `npm ci` there). */
export const REGISTRY_TOOL = fileURLToPath(new URL('./registry/', import.meta.url));
const VERDACCIO_BIN = path.join(REGISTRY_TOOL, 'node_modules/verdaccio/bin/verdaccio');

/** Every package fw publishes, by folder (relative to the checkout), in dependency order. */
export const PUBLISHED_DIRS = ['schemas', 'runtime-kernel', 'generators', 'generators/create-fw-app', 'runtime-kernel/additives/health'] as const;

/** A running local registry. */
export interface LocalRegistry {
  /** Its URL, with a trailing slash: `http://127.0.0.1:<port>/`. */
  url: string;
  /** The run's folder: verdaccio's config and storage, the npm config and cache, the tarballs. */
  dir: string;
  /**
   * The environment of a user of this registry: `npm_config_registry` points at it, an npmrc of
   * its own (with a token, so publishing works) and a cache whose index and `_npx` folder are
   * this run's (so no metadata of an earlier run, nor a create-fw-app it installed, is reused)
   * while the content-addressed store is shared (so tarballs of the uplink download once per
   * machine, and an install reads them by their integrity without asking the registry).
   */
  env: NodeJS.ProcessEnv;
  /** Stops verdaccio and removes the run's folder. */
  close: () => Promise<void>;
}

/** Options of {@link startRegistry}. */
export interface StartRegistryOptions {
  /** The run's folder (default: a new temp folder, removed by `close`). */
  dir?: string;
  /** The uplink (default: `npm config get registry`, e.g. https://registry.npmjs.org/). */
  uplink?: string;
}

/** The registry npm is configured with here: verdaccio's uplink. */
export function configuredRegistry(): string {
  const result = spawnSync('npm', ['config', 'get', 'registry'], { cwd: REPO, encoding: 'utf8' });
  const url = result.stdout.trim();
  if (result.status !== 0 || !/^https?:\/\//.test(url)) throw new Error(`npm config get registry failed: ${result.stderr}`);
  return url.endsWith('/') ? url : `${url}/`;
}

function verdaccioConfig(storage: string, uplink: string): string {
  // fw's own names never go to the uplink: a package of the same name there must not mix in.
  const own = `{ access: $all, publish: $all, unpublish: $all }`;
  return [
    `storage: ${JSON.stringify(storage)}`,
    'uplinks:',
    `  upstream: { url: ${JSON.stringify(uplink)}, timeout: 60s, maxage: 30m }`,
    'packages:',
    `  '@fw/*': ${own}`,
    `  'create-fw-app': ${own}`,
    `  '**': { access: $all, publish: $all, proxy: upstream }`,
    'web: { enable: false }',
    'max_body_size: 100mb',
    'log: { type: stdout, format: pretty, level: error }',
    '',
  ].join('\n');
}

async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited (code ${child.exitCode}) before it answered:\n${output()}`);
    try {
      if ((await fetch(`${url}-/ping`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`verdaccio did not answer ${url}-/ping within 60 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts verdaccio on a free loopback port. Throws naming `.ci/setup` when it is not installed. */
export async function startRegistry(options: StartRegistryOptions = {}): Promise<LocalRegistry> {
  if (!existsSync(VERDACCIO_BIN)) {
    throw new Error(`verdaccio is not installed in ${REGISTRY_TOOL}: run "bash .ci/setup" (or "npm ci --prefix test/support/registry").`);
  }
  const dir = options.dir ?? (await mkdtemp(path.join(tmpdir(), 'fw-registry-')));
  const storage = path.join(dir, 'storage');
  await mkdir(storage, { recursive: true });
  const config = path.join(dir, 'verdaccio.yaml');
  await writeFile(config, verdaccioConfig(storage, options.uplink ?? configuredRegistry()));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const child = spawn(process.execPath, [VERDACCIO_BIN, '--config', config, '--listen', `127.0.0.1:${port}`], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    await waitUntilUp(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }

  // The user's npm: this registry, a token for it, the machine's content store, this run's npx.
  const npmrc = path.join(dir, 'npmrc');
  const host = url.replace(/^http:/, '');
  await writeFile(npmrc, `registry=${url}\n${host}:_authToken=fw-release-test\nfund=false\naudit=false\nupdate-notifier=false\n`);
  const cache = path.join(dir, 'npm-cache');
  const cacache = path.join(cache, '_cacache');
  await mkdir(cacache, { recursive: true });
  const shared = path.join(spawnSync('npm', ['config', 'get', 'cache'], { cwd: REPO, encoding: 'utf8' }).stdout.trim(), '_cacache');
  // Only the content store is shared: its files are named by their hash, so a tarball downloaded
  // by any run is the same bytes in every run, and npm reads it by the integrity the lockfile or
  // the packument gives without asking the registry. The index (URL -> response, packuments
  // included) is this run's own: a port reused by a later run is a new registry, whose metadata
  // no earlier run cached. (`tmp` sits beside `content-v2` so npm's moves into it are renames.)
  for (const folder of ['content-v2', 'tmp']) {
    await mkdir(path.join(shared, folder), { recursive: true });
    await symlink(path.join(shared, folder), path.join(cacache, folder), 'dir');
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    npm_config_registry: url,
    npm_config_userconfig: npmrc,
    npm_config_cache: cache,
    npm_config_yes: 'true',
    CI: '1',
  };
  // A test runs inside the checkout's npm workspace otherwise: its own settings must not leak in,
  // nor the settings `npm test` / `npx` pass down as npm_config_* (e.g. the machine's
  // omit-lockfile-registry-resolved, under which a lockfile has no tarball URLs and every
  // `npm ci` asks the registry for each package's metadata and tarball): the user's npm config
  // is the npmrc above.
  const own = new Set(['npm_config_registry', 'npm_config_userconfig', 'npm_config_cache', 'npm_config_yes']);
  for (const key of Object.keys(env)) {
    if (/^npm_(package|lifecycle)_/.test(key) || key === 'INIT_CWD' || (/^npm_config_/i.test(key) && !own.has(key))) delete env[key];
  }

  return {
    url,
    dir,
    env,
    close: async () => {
      await stop();
      if (options.dir === undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** One package {@link publishAll} published. */
export interface PublishedPackage {
  name: string;
  version: string;
  /** The folder it was packed from. */
  dir: string;
  /** The tarball that was published. */
  tarball: string;
}

/** Options of {@link publishAll}. */
export interface PublishOptions {
  /**
   * Publish at this version instead of the checkout's: every package's `version` and its
   * dependencies on other fw packages are rewritten in the packed contents (not in the checkout).
   */
  version?: string;
  /** Changes the unpacked contents of a package before it is published (e.g. a blueprint edit). */
  edit?: (contents: string, name: string) => Promise<void>;
  /** The dist-tag (default `latest`). */
  tag?: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/**
 * Packs every fw package ({@link PUBLISHED_DIRS}) with `npm pack` from this checkout's build
 * (run `npm run build` first) and publishes it to `registry` under the `latest` tag (or `tag`).
 */
export async function publishAll(registry: Pick<LocalRegistry, 'dir' | 'env'>, options: PublishOptions = {}): Promise<PublishedPackage[]> {
  const out = await mkdtemp(path.join(registry.dir, 'pack-'));
  const published: PublishedPackage[] = [];
  for (const rel of PUBLISHED_DIRS) {
    const dir = path.join(REPO, rel);
    const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', out], dir)) as { name: string; version: string; filename: string }[];
    if (!packed) throw new Error(`npm pack printed nothing in ${dir}`);
    let target = path.join(out, packed.filename);
    let version = packed.version;
    if (options.version !== undefined || options.edit !== undefined) {
      // Unpack, rewrite, publish the folder: `npm publish <folder>` packs it again.
      const contents = path.join(out, `${packed.name.replace('/', '+')}-contents`);
      await mkdir(contents, { recursive: true });
      run('tar', ['-xzf', target, '-C', contents, '--strip-components=1'], out);
      if (options.version !== undefined) {
        version = options.version;
        await rewriteVersion(path.join(contents, 'package.json'), version);
      }
      await options.edit?.(contents, packed.name);
      target = contents;
    }
    run('npm', ['publish', target, '--tag', options.tag ?? 'latest', '--ignore-scripts', '--access', 'public'], out, registry.env);
    published.push({ name: packed.name, version, dir, tarball: target });
  }
  return published;
}

/** The fw package names, for rewriting their versions together. */
const FW_NAME = /^(?:@fw\/.+|create-fw-app)$/;

async function rewriteVersion(file: string, version: string): Promise<void> {
  const pkg = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  pkg.version = version;
  for (const field of ['dependencies', 'peerDependencies', 'devDependencies'] as const) {
    const deps = pkg[field] as Record<string, string> | undefined;
    for (const name of Object.keys(deps ?? {})) {
      if (deps && FW_NAME.test(name)) deps[name] = field === 'peerDependencies' ? `^${version}` : version;
    }
  }
  await writeFile(file, `${JSON.stringify(pkg, null, 2)}\n`);
}
