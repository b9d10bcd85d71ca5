/**
 * Ocean: `fw ocean search` over a large index (5,000 Additives × 10 versions, 500 bundles, read
 * from a file through FW_OCEAN_URL) as a whole process of the built CLI, against a Node process
 * that only reads and JSON.parses the same file; and, in this process, the index parse (JSON.parse
 * + zod schema + cross-checks) against JSON.parse alone.
 *
 *   npm run bench -- ocean       # BENCH_ROUNDS=7
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareCommands } from './lib/commands.ts';
import { compareOps } from './lib/micro.ts';
import { tempDir } from './lib/project.ts';
import { report } from './lib/report.ts';
import { FW_BIN, REPO, rounds } from './lib/settings.ts';

const { parseIndex } = (await import(join(REPO, 'generators', 'dist', 'ocean', 'index.js'))) as { parseIndex: (text: string, source: string) => unknown };
const ROUNDS = rounds(7);
const ADDITIVES = 5_000;
const index = {
  additives: Array.from({ length: ADDITIVES }, (_, i) => ({
    id: `additive-${i}`,
    package: `@ocean/additive-${i}`,
    description: `Additive number ${i} for the benchmark`,
    versions: ['0.9.0', '1.0.0', '1.0.1', '1.1.0-alpha.1', '1.1.0-beta.2', '1.1.0-rc.1', '1.1.0', '1.2.0-beta.1', '2.0.0-rc.1', '10.0.0'],
    tags: ['bench'],
  })),
  bundles: Array.from({ length: 500 }, (_, i) => ({ id: i, name: `bundle-${i}`, members: Array.from({ length: 20 }, (_, j) => `additive-${(i * 10 + j) % ADDITIVES}`) })),
};
const work = tempDir('ocean');
const file = join(work, 'index.json');
writeFileSync(file, JSON.stringify(index));
const text = readFileSync(file, 'utf8');

const search = await compareCommands(
  'ocean',
  [
    {
      name: 'fw ocean search "number 42"',
      fw: { label: 'fw ocean search', argv: [process.execPath, FW_BIN, 'ocean', 'search', 'number 42'], cwd: work, env: { ...process.env, FW_OCEAN_URL: file } },
      baseline: { label: 'node: read + JSON.parse the index', argv: [process.execPath, '-e', `JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'))`], cwd: work },
    },
  ],
  { rounds: ROUNDS },
);
const parse = await compareOps(
  'ocean',
  [
    {
      name: 'index parse (in process)',
      fw: { label: 'parseIndex (JSON.parse + zod + cross-checks)', run: () => parseIndex(text, 'bench') },
      baseline: { label: 'JSON.parse', run: () => JSON.parse(text) },
      ops: 10,
    },
  ],
  { rounds: ROUNDS },
);
report(`Ocean index (${(text.length / 1e6).toFixed(1)} MB)`, `${ROUNDS} interleaved rounds; search a fresh process each, parse in this process`, [...search, ...parse]);
