/**
 * `fw`, `fw --help` and `fw -h` print the usage text the build rendered beside the binary
 * (dist/bin/fw-help.txt, so help loads no CLI module): it must be exactly the command table's
 * `help`, with the exit codes the commands give it (0; 1 for a bare `fw`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { REPO } from './helpers.js';

const FW_BIN = path.join(REPO, 'generators/dist/bin/fw.js');
const COMMANDS = pathToFileURL(path.join(REPO, 'generators/dist/commands/index.js')).href;

beforeAll(() => {
  if (!existsSync(FW_BIN)) throw new Error(`${FW_BIN} is missing: run "npm run build" first (npm test does).`);
});

const fw = (args: string[]) => spawnSync(process.execPath, [FW_BIN, ...args], { cwd: REPO, encoding: 'utf8' });

test('the built fw prints the command table\'s help for fw, --help and -h, with the same exit codes', async () => {
  const { help } = (await import(COMMANDS)) as { help: string };
  expect(help).toContain('generate');
  for (const [args, code] of [[['--help'], 0], [['-h'], 0], [[], 1], [['--help', 'generate'], 0]] as const) {
    const result = fw([...args]);
    expect({ args, stdout: result.stdout, stderr: result.stderr, code: result.status }).toEqual({ args, stdout: `${help}\n`, stderr: '', code });
  }
});

test('every other invocation still reaches the commands', () => {
  expect(fw(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  const unknown = fw(['genrate']);
  expect(unknown.status).toBe(1);
  expect(unknown.stderr).toContain('did you mean generate');
  const group = fw(['create', '--help']);
  expect(group.status).toBe(0);
  expect(group.stdout).toContain('create project');
});

test("the build makes the binary executable: the checkout's node_modules/.bin/fw runs by itself", async () => {
  const { help } = (await import(COMMANDS)) as { help: string };
  const direct = spawnSync(path.join(REPO, 'node_modules/.bin/fw'), ['--help'], { cwd: REPO, encoding: 'utf8' });
  expect({ error: direct.error?.message, stdout: direct.stdout, code: direct.status }).toEqual({ error: undefined, stdout: `${help}\n`, code: 0 });
});
