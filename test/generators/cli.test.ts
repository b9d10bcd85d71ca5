import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { listFiles, REPO, tempDir } from './helpers.js';

const CREATE_BIN = path.join(REPO, 'generators/dist/bin/create-fw-app.js');
const FW_BIN = path.join(REPO, 'generators/dist/bin/fw.js');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a built binary with stdin a pipe (never a TTY), and a hard timeout. */
function runBin(bin: string, args: string[], cwd: string, timeoutMs = 10_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
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

beforeAll(() => {
  for (const bin of [CREATE_BIN, FW_BIN]) {
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
    const bad = await runBin(CREATE_BIN, ['x', '--colour'], cwd);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/error: create-fw-app: Unknown option '--colour'.*--help/);
    const missing = await runBin(CREATE_BIN, [], cwd);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('missing <dir>');
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

  test('an unknown command is a clear error and exit 1', async () => {
    const cwd = await tempDir();
    const ran = await runBin(FW_BIN, ['deploy'], cwd);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/^error: unknown command "deploy"; expected one of create(, [a-z]+)*\. Run "fw --help"\.\n$/);
    const sub = await runBin(FW_BIN, ['create', 'widget'], cwd);
    expect(sub.code).toBe(1);
    expect(sub.stderr).toContain('fw create: got "widget"; expected one of project, app');
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
