import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { listFiles, REPO, tempDir } from './helpers.js';

const CREATE_BIN = path.join(REPO, 'generators/dist/bin/create-fw-app.js');
const FW_BIN = path.join(REPO, 'generators/dist/bin/fw.js');
/** The create-fw-app package's bundle: what `npm create fw-app` runs. */
const CREATE_BUNDLE = path.join(REPO, 'generators/create-fw-app/dist/index.js');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a built binary with stdin a pipe (never a TTY), and a hard timeout. */
function runBin(bin: string, args: string[], cwd: string, timeoutMs = 10_000, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${path.basename(bin)} ${args.join(' ')} still running after ${timeoutMs} ms (waiting for input?)`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A git identity, so a first commit can be made on a machine without one. */
const GIT_IDENTITY = { GIT_AUTHOR_NAME: 'fw test', GIT_AUTHOR_EMAIL: 'test@fw.invalid', GIT_COMMITTER_NAME: 'fw test', GIT_COMMITTER_EMAIL: 'test@fw.invalid' };

/**
 * A folder with an \`npm\` that only records where it ran and with what (\`<cwd>: <args>\`), to be
 * put first on PATH: the tests check which install command fw runs and where, not npm itself
 * (installing from the registry belongs to the release tests).
 */
async function fakeNpm(dir: string): Promise<string> {
  const bin = path.join(dir, 'fake-bin');
  await mkdir(bin);
  await writeFile(path.join(bin, 'npm'), `#!/bin/sh\necho "$PWD: $*" >> "${bin}/calls"\n`, { mode: 0o755 });
  return bin;
}

async function npmCalls(bin: string): Promise<string[]> {
  return existsSync(path.join(bin, 'calls')) ? (await readFile(path.join(bin, 'calls'), 'utf8')).trim().split('\n') : [];
}

beforeAll(() => {
  for (const bin of [CREATE_BIN, CREATE_BUNDLE, FW_BIN]) {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: run "npm run build" first (npm test does).`);
  }
});

describe('create-fw-app binary', () => {
  test('without a TTY and without --yes it exits 1 on its own (never waits for input), naming the missing flags', async () => {
    const cwd = await tempDir();
    // stdin stays open: a CLI waiting for an answer would still run at the timeout, which fails the test.
    const ran = await runBin(CREATE_BIN, ['my-app'], cwd, 5_000);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('error: missing input and no terminal to ask: give --surface <none|htmx|vite>, --alpine or --no-alpine');
    expect(await listFiles(cwd)).toEqual([]);
  });

  test('--yes creates the project and exits 0', async () => {
    const cwd = await tempDir();
    const ran = await runBin(CREATE_BIN, ['site', '--yes'], cwd);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('Created site');
    expect(await listFiles(path.join(cwd, 'site'))).toContain('fluid/app.ts');
  });

  test('--help prints usage with every flag; an unknown flag is an error', async () => {
    const cwd = await tempDir();
    const help = await runBin(CREATE_BIN, ['--help'], cwd);
    expect(help.code).toBe(0);
    for (const flag of ['--surface', '--alpine', '--no-alpine', '--framework', '--typescript', '--yes', '--dry-run', '--force', '--kernel']) {
      expect(help.stdout).toContain(flag);
    }
    for (const flag of ['--install', '--no-install', '--git', '--no-git', '--version']) expect(help.stdout).toContain(flag);
    const bad = await runBin(CREATE_BIN, ['x', '--colour'], cwd);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('error: create-fw-app: unknown option --colour. Run "create-fw-app --help" for usage.\n');
    const typo = await runBin(CREATE_BIN, ['x', '--framwork', 'react'], cwd);
    expect(typo.stderr).toBe('error: create-fw-app: unknown option --framwork (did you mean --framework?). Run "create-fw-app --help" for usage.\n');
    const noValue = await runBin(CREATE_BIN, ['x', '--surface'], cwd);
    expect(noValue.stderr).toBe('error: create-fw-app: --surface needs a value (--surface <value>). Run "create-fw-app --help" for usage.\n');
    const version = await runBin(CREATE_BIN, ['--version'], cwd);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    const missing = await runBin(CREATE_BIN, [], cwd);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('missing <dir>');
  });

  test('--framework implies --surface vite, with --yes too (bug 5); --surface vite --yes takes the vanilla framework', async () => {
    const cwd = await tempDir();
    const react = await runBin(CREATE_BIN, ['r', '--framework', 'react', '--yes'], cwd);
    expect(react.code, react.stderr).toBe(0);
    const fw = JSON.parse(await readFile(path.join(cwd, 'r/fw.json'), 'utf8'));
    expect(fw.config.APP_FRONTEND).toEqual({ type: 'vite', framework: 'react', typescript: false, register_index: true });
    const vanilla = await runBin(CREATE_BIN, ['n', '--surface', 'vite', '--yes'], cwd);
    expect(vanilla.code, vanilla.stderr).toBe(0);
    expect(JSON.parse(await readFile(path.join(cwd, 'n/fw.json'), 'utf8')).config.APP_FRONTEND.framework).toBe('none');
    const clash = await runBin(CREATE_BIN, ['c', '--framework', 'react', '--surface', 'htmx', '--yes'], cwd);
    expect(clash.stderr).toContain('a framework is for --surface vite, not --surface htmx');
  });

  test('--install runs the install in the new project, --git makes a repository with a first commit; neither runs without them', async () => {
    const cwd = await tempDir();
    const bin = await fakeNpm(cwd);
    const env = { PATH: `${bin}:${process.env.PATH}`, ...GIT_IDENTITY };
    const plain = await runBin(CREATE_BIN, ['plain', '--yes'], cwd, 10_000, env);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('Next steps:\n  cd plain\n  npm install\n  npm run dev\n');
    expect(existsSync(path.join(cwd, 'plain/.git'))).toBe(false);
    expect(await npmCalls(bin)).toEqual([]);
    const both = await runBin(CREATE_BIN, ['both', '--yes', '--install', '--git'], cwd, 10_000, env);
    expect(both.code, both.stderr).toBe(0);
    expect(await npmCalls(bin)).toEqual([`${path.join(cwd, 'both')}: install`]);
    expect(both.stdout).toContain('Initialized a git repository with a first commit.');
    expect(both.stdout).toContain('Next steps:\n  cd both\n  npm run dev\n');
    const log = spawnSync('git', ['log', '--format=%s', '--name-only'], { cwd: path.join(cwd, 'both'), encoding: 'utf8' });
    expect(log.stdout).toContain('Initial commit from create-fw-app');
    expect(log.stdout).toContain('fluid/app.ts');
    // The app config holds SECRET_KEY: never committed.
    expect(log.stdout).not.toContain('app_configs/');
  });

  test('--json with --install or --git is refused before anything is written (it used to skip them silently); --dry-run says what they would run', async () => {
    const cwd = await tempDir();
    const bin = await fakeNpm(cwd);
    const env = { PATH: `${bin}:${process.env.PATH}`, ...GIT_IDENTITY };
    const install = await runBin(CREATE_BIN, ['a', '--yes', '--json', '--install'], cwd, 10_000, env);
    expect([install.code, install.stderr]).toEqual([1, 'error: --install runs npm install, whose output is not JSON: drop --json, or drop --install and run "npm install" in the project afterwards.\n']);
    const git = await runBin(CREATE_BIN, ['b', '--yes', '--json', '--git'], cwd, 10_000, env);
    expect([git.code, git.stderr]).toEqual([1, 'error: --git runs git init and a first commit, whose output is not JSON: drop --json, or drop --git and run "git init" in the project afterwards.\n']);
    expect(existsSync(path.join(cwd, 'a'))).toBe(false);
    expect(existsSync(path.join(cwd, 'b'))).toBe(false);
    const dry = await runBin(CREATE_BIN, ['c', '--yes', '--dry-run', '--install', '--git'], cwd, 10_000, env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('With --install it would then run "npm install" there.\nWith --git it would then run "git init" and make a first commit there.\n');
    expect(existsSync(path.join(cwd, 'c'))).toBe(false);
    expect(await npmCalls(bin)).toEqual([]);
  });

  test('--kernel takes what npm install takes and refuses, before writing anything, a spec npm refuses (it failed only at the install)', async () => {
    const cwd = await tempDir();
    // The published bundle (what `npm create fw-app` runs) and the CLI's own build.
    for (const bin of [CREATE_BUNDLE, CREATE_BIN]) {
      const bad = await runBin(bin, ['bad', '--yes', '--kernel', 'not a spec!'], cwd);
      expect(bad.code).toBe(1);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toContain('error: --kernel: got "not a spec!", which npm cannot install (npm: Invalid tag name "not a spec!"');
      expect(bad.stderr).toContain('expected an npm spec of @fw/kernel as "npm install @fw/kernel@<spec>" takes it: a version (0.1.0), a range (^0.1.0), a dist-tag');
      const empty = await runBin(bin, ['bad', '--yes', '--kernel', ' '], cwd);
      expect([empty.code, empty.stderr]).toEqual([1, expect.stringContaining('error: --kernel: got an empty value; expected an npm spec of @fw/kernel')]);
      expect(await listFiles(cwd)).toEqual([]);
    }
    const specs = ['0.1.0', '^0.1.0', 'next', 'file:../fw/runtime-kernel', 'github:fw-dev/fw#main', 'https://example.test/kernel.tgz'];
    for (const [i, spec] of specs.entries()) {
      const ran = await runBin(CREATE_BUNDLE, [`ok${i}`, '--yes', '--kernel', spec], cwd);
      expect(ran.code, ran.stderr).toBe(0);
      expect(JSON.parse(await readFile(path.join(cwd, `ok${i}/package.json`), 'utf8')).dependencies['@fw/kernel']).toBe(spec);
    }
  });

  test('--surface vite --framework react writes the Vite workspace and the root wiring', async () => {
    const cwd = await tempDir();
    const ran = await runBin(CREATE_BIN, ['v', '--surface', 'vite', '--framework', 'react', '--yes'], cwd);
    expect(ran.code, ran.stderr).toBe(0);
    const files = await listFiles(path.join(cwd, 'v'));
    expect(files).toContain('vite.config.js');
    expect(files).toContain('fluid/frontend/package.json');
    expect(JSON.parse(await readFile(path.join(cwd, 'v/package.json'), 'utf8')).workspaces).toEqual(['fluid/frontend']);
  });
});

describe('fw binary', () => {
  test('fw --help lists the commands; fw <command> --help shows its options', async () => {
    const cwd = await tempDir();
    const help = await runBin(FW_BIN, ['--help'], cwd);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/create project[\s\S]*create app[\s\S]*run/);
    const runHelp = await runBin(FW_BIN, ['run', '--help'], cwd);
    expect(runHelp.stdout).toMatch(/--port[\s\S]*--host[\s\S]*--watch/);
    const appHelp = await runBin(FW_BIN, ['create', 'app', '--help'], cwd);
    expect(appHelp.stdout).toContain('SECRET_KEY');
    const oceanHelp = await runBin(FW_BIN, ['ocean', 'search', '--help'], cwd);
    expect(oceanHelp.code).toBe(0);
    expect(oceanHelp.stdout).toContain('Usage: fw ocean search');
  });

  test('fw --version prints the version; --help works on every command and every group', async () => {
    const cwd = await tempDir();
    const version = await runBin(FW_BIN, ['--version'], cwd);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    expect((await runBin(FW_BIN, ['-v'], cwd)).stdout).toBe(version.stdout);
    const commands = [...(await runBin(FW_BIN, ['--help'], cwd)).stdout.matchAll(/^  ([a-z]+(?: [a-z]+)?)\s{2,}/gm)].map((m) => m[1]!);
    expect(commands).toEqual(expect.arrayContaining(['create project', 'destroy additive', 'migrate', 'ocean install', 'generate']));
    const groups = ['create', 'destroy', 'ocean'];
    // Every command and group, outside any project: help never needs one.
    for (const words of [...commands, ...groups]) {
      const ran = await runBin(FW_BIN, [...words.split(' '), '--help'], cwd);
      expect(ran.code, `fw ${words} --help: ${ran.stderr}`).toBe(0);
      expect(ran.stdout, `fw ${words} --help`).toMatch(/^Usage: /);
      expect(ran.stderr).toBe('');
    }
    const create = await runBin(FW_BIN, ['create', '--help'], cwd);
    expect(create.stdout).toMatch(/create project[\s\S]*create app[\s\S]*create additive/);
    expect((await runBin(FW_BIN, ['help', 'migrate'], cwd)).stdout).toMatch(/^Usage: fw migrate <action>/);
    const bare = await runBin(FW_BIN, ['destroy'], cwd);
    expect(bare.code).toBe(1);
    expect(bare.stdout).toMatch(/^Usage: fw destroy <additive>/);
  });

  test('an unknown command, subcommand, action or flag is a clear error with a did-you-mean, and exit 1', async () => {
    const cwd = await tempDir();
    const ran = await runBin(FW_BIN, ['deploy'], cwd);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/^error: unknown command "deploy"; expected one of create(, [a-z]+)*\. Run "fw --help"\.\n$/);
    const cases: [string[], string][] = [
      [['genrate'], 'error: unknown command "genrate" (did you mean generate?); expected one of'],
      [['project'], 'error: unknown command "project" (did you mean create project?)'],
      [['create', 'widget'], 'error: fw create: unknown command "widget"; expected one of project, app, additive, auth. Run "fw create --help".'],
      [['create', 'projct'], 'error: fw create: unknown command "projct" (did you mean project?)'],
      [['ocean', 'instal'], 'error: fw ocean: unknown command "instal" (did you mean install?)'],
      [['migrate', 'inti'], 'error: fw migrate: got "inti" (did you mean init?); expected one of init, dev, deploy, status, reset, diff.'],
      [['generate', '--dryrun'], 'error: fw generate: unknown option --dryrun (did you mean --dry-run?). Run "fw generate --help" for usage.'],
      [['run', '--prot', '80'], 'error: fw run: unknown option --prot (did you mean --port?). Run "fw run --help" for usage.'],
      [['run', '--port'], 'error: fw run: --port needs a value (--port <value>). Run "fw run --help" for usage.'],
      [['generate', '--json=yes'], 'error: fw generate: --json takes no value. Run "fw generate --help" for usage.'],
      [['ocean', 'install', 'blog', '--bundel', '1'], 'unknown option "--bundel" for fw ocean install (did you mean --bundle?)'],
      [['--verison'], 'error: unknown option "--verison" (did you mean'],
    ];
    for (const [argv, message] of cases) {
      const bad = await runBin(FW_BIN, argv, cwd);
      expect(bad.code, argv.join(' ')).toBe(1);
      expect(bad.stderr, argv.join(' ')).toContain(message);
      expect(bad.stderr, argv.join(' ')).not.toMatch(/\n\s+at /); // no stack trace
    }
  });

  test('fw create project and fw create app work end to end through the binary', async () => {
    const cwd = await tempDir();
    const created = await runBin(FW_BIN, ['create', 'project', 'proj', '--surface', 'none'], cwd);
    expect(created.code).toBe(0);
    const root = path.join(cwd, 'proj');
    const app = await runBin(FW_BIN, ['create', 'app', 'staging'], root);
    expect(app.stderr).toBe('');
    expect(app.stdout).toBe('Wrote app_configs/staging.ini with a fresh SECRET_KEY.\n');
    // create project wrote the project's own app config already
    const again = await runBin(FW_BIN, ['create', 'app', 'proj'], root);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists; pass --force');
  });

  test('fw run outside a project, or with a bad --port, fails clearly', async () => {
    const cwd = await tempDir();
    const outside = await runBin(FW_BIN, ['run'], cwd);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/no fw\.json found/);
    await runBin(FW_BIN, ['create', 'project', 'p', '--yes'], cwd);
    const badPort = await runBin(FW_BIN, ['run', '--port', 'eighty'], path.join(cwd, 'p'));
    expect(badPort.stderr).toContain('--port: got "eighty"; expected an integer from 0 to 65535');
    const notInstalled = await runBin(FW_BIN, ['run'], path.join(cwd, 'p'));
    expect(notInstalled.code).toBe(1);
    expect(notInstalled.stderr).toMatch(/@fw\/kernel is not installed in .*p: run "npm install"/);
  });
});
