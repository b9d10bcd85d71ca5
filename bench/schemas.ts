/**
 * @fw/schemas on the hot paths: importing it (every CLI run and every boot) against importing zod
 * alone, whole processes; and `parseConfig` over three layers (every boot) against zod parsing the
 * already-typed values, in this process.
 *
 *   npm run bench -- schemas     # BENCH_ROUNDS=9
 */
import { join } from 'node:path';
import { configDefaults, configSchema, parseConfig } from '@fw/schemas';
import { compareCommands } from './lib/commands.ts';
import { compareOps } from './lib/micro.ts';
import { report } from './lib/report.ts';
import { knob, REPO, rounds } from './lib/settings.ts';

const ROUNDS = rounds(9);
const importing = (specifier: string): readonly [string, ...string[]] => [process.execPath, '--input-type=module', '-e', `await import(${JSON.stringify(specifier)});`];
const imports = await compareCommands(
  'schemas',
  [
    {
      name: 'import',
      fw: { label: 'import @fw/schemas', argv: importing('@fw/schemas'), cwd: REPO },
      // From the schemas package, so it is the zod @fw/schemas itself uses.
      baseline: { label: 'import zod', argv: importing('zod'), cwd: join(REPO, 'schemas') },
    },
  ],
  { rounds: ROUNDS },
);

const layers = [
  { source: 'fw.json', values: { APP_FRONTEND: { type: 'htmx', alpine: true }, AUTH_ROLES: ['admin'] } },
  { source: 'app_configs/x.ini', values: { SECRET_KEY: 'x'.repeat(64), DEBUG: 'true', PORT: '8080' } },
  { source: 'environment', values: { CACHE_TYPE: 'memory', EXT_BABEL: '1' } },
];
const typed = { ...configDefaults(), APP_FRONTEND: { type: 'htmx', alpine: true }, AUTH_ROLES: ['admin'], SECRET_KEY: 'x'.repeat(64), DEBUG: true, PORT: 8080, CACHE_TYPE: 'memory', EXT_I18N: true };
const parse = await compareOps(
  'schemas',
  [
    {
      name: 'config parse',
      fw: { label: 'parseConfig (3 layers: coerce, aliases, validate)', run: () => parseConfig(layers) },
      baseline: { label: 'configSchema.parse (typed values)', run: () => configSchema.parse(typed) },
      ops: knob('BENCH_PARSES', 5_000, 500),
    },
  ],
  { rounds: ROUNDS },
);
report('@fw/schemas', `${ROUNDS} interleaved rounds; imports a fresh process each, parses in this process`, [...imports, ...parse]);
