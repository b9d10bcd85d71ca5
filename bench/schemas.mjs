// Cost of @fw/schemas on the hot paths: importing it (every CLI run and every boot) and
// parseConfig (every boot), against bare zod in the same process run.
// Run: npm run build && node bench/schemas.mjs
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const schemasDist = new URL('../schemas/dist/index.js', import.meta.url).href;
const zodEntry = new URL('../schemas/node_modules/zod/index.js', import.meta.url);
const zodHref = (await import('node:fs')).existsSync(zodEntry) ? zodEntry.href : new URL('../node_modules/zod/index.js', import.meta.url).href;

function importMs(href, runs = 15) {
  const script = `const t=performance.now();await import(${JSON.stringify(href)});console.log(performance.now()-t)`;
  const times = [];
  for (let i = 0; i < runs; i++) {
    times.push(Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root }).toString()));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function opsPerSec(fn, ms = 500) {
  for (let i = 0; i < 200; i++) fn();
  let n = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    fn();
    n++;
  }
  return (n * 1000) / ms;
}

const s = await import(schemasDist);
const layers = [
  { source: 'fw.json', values: { APP_FRONTEND: { type: 'htmx', alpine: true }, AUTH_ROLES: ['admin'] } },
  { source: 'app_configs/x.ini', values: { SECRET_KEY: 'x'.repeat(64), DEBUG: 'true', PORT: '8080' } },
  { source: 'environment', values: { CACHE_TYPE: 'memory', EXT_BABEL: '1' } },
];
const typed = { ...s.configDefaults(), APP_FRONTEND: { type: 'htmx', alpine: true }, AUTH_ROLES: ['admin'], SECRET_KEY: 'x'.repeat(64), DEBUG: true, PORT: 8080, CACHE_TYPE: 'memory', EXT_I18N: true };

const zodImport = importMs(zodHref);
const schemasImport = importMs(schemasDist);
const parseOps = opsPerSec(() => s.parseConfig(layers));
const zodOps = opsPerSec(() => s.configSchema.parse(typed));

const rows = [
  ['import (median of 15, ms)', 'import zod', zodImport.toFixed(1), '@fw/schemas', schemasImport.toFixed(1), (schemasImport / zodImport).toFixed(2)],
  ['config parse (ops/s)', 'configSchema.parse (typed)', zodOps.toFixed(0), 'parseConfig (3 layers)', parseOps.toFixed(0), (parseOps / zodOps).toFixed(2)],
];
console.table(rows.map(([what, base, baseV, fw, fwV, ratio]) => ({ what, baseline: base, 'baseline value': baseV, fw, 'fw value': fwV, 'fw/baseline': ratio })));
