/**
 * On a terminal, `fw make` asks the questions its flags did not answer, with fw's prompt layer
 * (@clack/prompts), and takes a question's default on Enter. Runs the built `fw` on a
 * pseudo-terminal (`script`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REPO } from '../generators/helpers.js';
import { project, read } from './helpers.js';

const FW_BIN = path.join(REPO, 'generators/dist/bin/fw.js');
let root = '';
let remove = async (): Promise<void> => undefined;

beforeAll(async () => {
  if (!existsSync(FW_BIN)) throw new Error(`${FW_BIN} is missing: run "npm run build" first (npm test does).`);
  if (spawnSync('script', ['--version']).status !== 0) throw new Error('the "script" binary (util-linux) is required to give the CLI a pseudo-terminal');
  ({ root, remove } = await project());
});

afterAll(() => remove());

test('fw make page on a terminal asks the name, then takes the defaults of the title and the path', async () => {
  const child = spawn('script', ['-qec', `${process.execPath} ${FW_BIN} make page --title "Who we are"`, '/dev/null'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  const asked: string[] = [];
  const answer = (prompt: string, keys: string): void => {
    if (screen.includes(prompt) && !asked.includes(prompt)) {
      asked.push(prompt);
      child.stdin.write(keys);
    }
  };
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    answer('Page name', 'about-us\r');
    answer('URL path', '\r'); // the default, /about-us
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the prompts did not finish within 30 s; screen so far:\n${screen}`));
    }, 30_000);
    child.on('exit', (exit) => {
      clearTimeout(timer);
      resolve(exit);
    });
  });
  expect(code, screen).toBe(0);
  // --title answered its question: it was not asked.
  expect(asked).toEqual(['Page name', 'URL path']);
  expect(screen).not.toContain('Page title');
  expect(await read(root, 'fluid/app.ts')).toContain("fluid.app.get('about-us', '/about-us', (ctx) =>\n  ctx.render('about-us.html', { title: 'Who we are' }),\n);");
}, 40_000);
