import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { REPO, tempDir } from './helpers.js';

const CREATE_BIN = path.join(REPO, 'generators/dist/bin/create-fw-app.js');

beforeAll(() => {
  if (!existsSync(CREATE_BIN)) throw new Error(`${CREATE_BIN} is missing: run "npm run build" first (npm test does).`);
  if (spawnSync('script', ['--version']).status !== 0) {
    throw new Error('the "script" binary (util-linux) is required to give the CLI a pseudo-terminal');
  }
});

test('on a TTY it prompts for the surface, Alpine and auth, then offers the install and git init, and uses the answers', async () => {
  const cwd = await tempDir();
  // `script` runs the CLI on a pseudo-terminal; answers are typed once each prompt shows.
  const child = spawn('script', ['-qec', `${process.execPath} ${CREATE_BIN} prompted`, '/dev/null'], {
    cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, GIT_AUTHOR_NAME: 'fw test', GIT_AUTHOR_EMAIL: 'test@fw.invalid', GIT_COMMITTER_NAME: 'fw test', GIT_COMMITTER_EMAIL: 'test@fw.invalid' },
  });
  let screen = '';
  const answered = new Set<string>();
  const answer = (prompt: string, keys: string): void => {
    if (screen.includes(prompt) && !answered.has(prompt)) {
      answered.add(prompt);
      child.stdin.write(keys);
    }
  };
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    answer('Frontend surface of the main app', '\r'); // the default: htmx
    answer('Add Alpine.js?', 'y\r');
    answer('Add sign-up and sign-in', '\r'); // the default: no (yes would install and run fw create auth)
    answer('Install the dependencies now (npm install)?', 'n\r');
    answer('Initialize a git repository?', '\r'); // the default: yes
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the prompts did not finish within 20 s; screen so far:\n${screen}`));
    }, 20_000);
    child.on('exit', (exit) => {
      clearTimeout(timer);
      resolve(exit);
    });
  });
  expect(code).toBe(0);
  expect([...answered]).toEqual(['Frontend surface of the main app', 'Add Alpine.js?', 'Add sign-up and sign-in', 'Install the dependencies now (npm install)?', 'Initialize a git repository?']);
  const fw = JSON.parse(await readFile(path.join(cwd, 'prompted/fw.json'), 'utf8'));
  expect(fw.config.APP_FRONTEND).toEqual({ type: 'htmx', alpine: true });
  // Not installed (answered no), so the next steps still say how; a repository with a first commit.
  expect(screen).toMatch(/Next steps:\s+cd prompted\s+npm install\s+npm run dev/);
  expect(existsSync(path.join(cwd, 'prompted/node_modules'))).toBe(false);
  expect(spawnSync('git', ['log', '--format=%s'], { cwd: path.join(cwd, 'prompted'), encoding: 'utf8' }).stdout).toBe('Initial commit from create-fw-app\n');
}, 30_000);
