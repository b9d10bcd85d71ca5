/**
 * fw's documentation reaches users: a message, `--help` text or generated file never sends them to a
 * `docs/<page>.md` their project does not have, but to `npx fw docs <topic>`, and every topic a
 * message names has its page. `fw docs` lists the pages, prints one, or its path
 * (test/release/packed.test.ts checks the published @fw/cli ships them).
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { REPO } from './helpers.js';

const FW_BIN = path.join(REPO, 'generators/dist/bin/fw.js');
const fw = (args: string[]) => spawnSync(process.execPath, [FW_BIN, ...args], { cwd: REPO, encoding: 'utf8' });

/** The TypeScript sources whose strings users read: the CLI (with create-fw-app's) and the kernel. */
function sources(): string[] {
  return ['generators/src', 'runtime-kernel/src']
    .flatMap((dir) => readdirSync(path.join(REPO, dir), { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f)))
    .filter((f) => f.endsWith('.ts'));
}

/** Lines of code (not comments) in the sources. */
function codeLines(): { file: string; line: string }[] {
  return sources().flatMap((file) =>
    readFileSync(path.join(REPO, file), 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
      .map((line) => ({ file, line })),
  );
}

/** Every line of the blueprints: the code fw writes into projects, comments included (they are the user's to read). */
function blueprintLines(): { file: string; line: string }[] {
  return readdirSync(path.join(REPO, 'blueprints'), { recursive: true, encoding: 'utf8' })
    .map((f) => path.join('blueprints', f))
    .filter((f) => /\.(hbs|ts|json|js)$/.test(f))
    .flatMap((file) => readFileSync(path.join(REPO, file), 'utf8').split('\n').map((line) => ({ file, line })));
}

test('no message, help text or generated file points at docs/<page>.md; every "fw docs <topic>" they name has a page', () => {
  const lines = [...codeLines(), ...blueprintLines()];
  expect(lines.filter(({ line }) => /docs\/[a-z-]+\.md/.test(line)).map(({ file, line }) => `${file}: ${line.trim()}`)).toEqual([]);
  const named = new Set(lines.flatMap(({ line }) => [...line.matchAll(/fw docs ([a-z][a-z-]*)/g)].map((m) => m[1]!)));
  expect(named.size).toBeGreaterThan(5);
  const pages = new Set(readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)));
  expect([...named].filter((topic) => !pages.has(topic))).toEqual([]);
});

test('fw docs lists the topics with their titles and the folder; a topic prints its page, --path its file', () => {
  const list = fw(['docs']);
  expect(list.status).toBe(0);
  expect(list.stdout).toContain(`fw's documentation (${path.join(REPO, 'docs')}):`);
  expect(list.stdout).toMatch(/^ {2}deployment +Deploying an fw app$/m);
  expect(list.stdout).toMatch(/^ {2}tailwind +Tailwind$/m);
  const page = fw(['docs', 'deployment']);
  expect({ status: page.status, stdout: page.stdout }).toEqual({ status: 0, stdout: readFileSync(path.join(REPO, 'docs/deployment.md'), 'utf8') });
  expect(fw(['docs', 'tailwind.md', '--path']).stdout).toBe(`${path.join(REPO, 'docs/tailwind.md')}\n`);
});

test('fw docs with an unknown topic names it, suggests the closest, and fails', () => {
  const wrong = fw(['docs', 'deploymnet']);
  expect(wrong.status).toBe(1);
  expect(wrong.stderr).toBe('error: fw docs: no page "deploymnet" (did you mean deployment?); run "fw docs" for the list.\n');
});

test('fw docs piped into a reader that stops early (| head, a pager quit) exits 0 without a stack', async () => {
  const child = spawn(process.execPath, [FW_BIN, 'docs', 'performance'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy(); // the reader is gone before fw writes the page
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
});
