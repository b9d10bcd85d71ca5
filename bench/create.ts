/**
 * Project creation: `create-fw-app <dir> --yes` (no install) against `create-vite <dir>
 * --template vanilla-ts` (this checkout's node_modules/create-vite), same machine, same run.
 *
 *   npm run build && npx tsx bench/create.ts     # BENCH_RUNS=10 by default
 *
 * Each run is a fresh process writing into a fresh directory; the two tools alternate so disk and
 * CPU noise hit both alike. create-fw-app does more per file than create-vite copies: it renders
 * handlebars, formats with prettier, writes atomically (temp file, fsync, rename) and keeps the
 * generation record (.fw/record.json + content store). The median is reported.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 10);
const createFw = join(repo, 'generators/dist/bin/create-fw-app.js');
const createVite = join(repo, 'node_modules/create-vite/index.js');
for (const file of [createFw, createVite]) {
  if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build" (and npm install) first`);
}

interface Tool {
  name: string;
  args: (dir: string) => string[];
  times: number[];
  files: number;
}

const tools: Tool[] = [
  { name: 'create-fw-app --yes', args: (dir) => [createFw, dir, '--yes'], times: [], files: 0 },
  { name: 'create-vite vanilla-ts', args: (dir) => [createVite, dir, '--template', 'vanilla-ts', '--no-interactive'], times: [], files: 0 },
];

const work = mkdtempSync(join(tmpdir(), 'fw-bench-create-'));
const countFiles = (dir: string): number =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

try {
  for (let i = 0; i < runs; i += 1) {
    const order = i % 2 === 0 ? tools : [...tools].reverse();
    for (const tool of order) {
      const name = `${tool.name.split(' ')[0]}-${i}`;
      const dir = join(work, name);
      const started = performance.now();
      // Both get a directory name relative to their cwd, as a user would type it.
      const result = spawnSync(process.execPath, tool.args(name), { cwd: work, encoding: 'utf8' });
      const ms = performance.now() - started;
      if (result.status !== 0) throw new Error(`${tool.name} failed: ${result.stderr}`);
      tool.times.push(ms);
      tool.files = countFiles(dir);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const baseline = median(tools[1]!.times);
console.log(`\nProject creation, ${runs} runs each, alternating (no npm install)\n`);
console.log('| tool | files written | median ms | min ms | ratio vs create-vite |');
console.log('|---|---:|---:|---:|---:|');
for (const tool of tools) {
  const med = median(tool.times);
  console.log(`| ${tool.name} | ${tool.files} | ${med.toFixed(0)} | ${Math.min(...tool.times).toFixed(0)} | ${(med / baseline).toFixed(2)}x |`);
}
