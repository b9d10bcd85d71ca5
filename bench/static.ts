/**
 * Static files: the kernel's own `/static` mount (the app's `fluid/static/`, default config)
 * serving 1 KB and 100 KB files, and the catch-all asset route of a production Vite app (a
 * root-relative `/logo.svg` found in the surface's `public/` through the `vite_ns` cookie),
 * each against koa-static serving the same file; and the styled 404 page against the plain 404
 * of the same app and against Koa answering the same page bytes from memory.
 *
 * The kernel keeps a small file's bytes once its last change is two seconds old (see
 * docs/static-files.md); the files here are written at start, so measuring waits until they are
 * that old, as a deployed app's files are.
 *
 *   npm run bench -- static      # BENCH_ROUNDS=5 BENCH_SECONDS=2
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { compareHttp, get, httpSettings, type Endpoint } from './lib/http-compare.ts';
import { kernelProject, tempDir, writeFiles } from './lib/project.ts';
import { report } from './lib/report.ts';
import { startServer, stopAll, type RunningServer } from './lib/server.ts';
import { BENCH_DIR, rounds } from './lib/settings.ts';

const ROUNDS = rounds(5);
// Text files of exact sizes (base64 of random bytes: no compression trick applies).
const text = (bytes: number): string => randomBytes(bytes).toString('base64').slice(0, bytes);
const files = { 'small.css': text(1024), 'large.js': text(100 * 1024), 'logo.svg': text(1024) };

const htmx = kernelProject({}, { 'fluid/static/small.css': files['small.css'], 'fluid/static/large.js': files['large.js'] });
const vite = kernelProject(
  // Production (DEBUG off) with the build already present: the boot neither checks nor builds.
  { APP_FRONTEND: { type: 'vite', framework: 'react' }, FW_CHECK_FRONTEND: false, FW_BUILD_FRONTEND: false },
  {
    'fluid/frontend/dist/index.html': '<!doctype html><html><head></head><body><div id="root"></div></body></html>',
    'fluid/frontend/public/logo.svg': files['logo.svg'],
  },
);
const plainDir = tempDir('koa-static');
writeFiles(plainDir, files);
const written = Date.now();
const SETTLED_MS = 2000; // runtime-kernel/src/core/static-file.ts

const server = (file: string, args: string[], name: string): Promise<RunningServer> => startServer(join(BENCH_DIR, 'servers', file), args, { name });
const servers: RunningServer[] = [];
try {
  const [fw, fwVite] = await Promise.all([server('fw-hello.ts', [htmx, '0'], 'fw kernel'), server('fw-hello.ts', [vite, '0'], 'fw kernel, Vite app')]);
  servers.push(fw, fwVite);
  // Koa's 404 answers the kernel's styled page bytes, fetched once.
  const styled = await get(fw.url('/missing'), { Accept: 'text/html' });
  const pageFile = join(plainDir, '..', `${plainDir.split('/').pop()}-404.html`);
  writeFileSync(pageFile, styled.body);
  const koa = await server('koa-static.ts', [plainDir, pageFile], 'koa-static');
  servers.push(koa);

  await delay(Math.max(0, written + SETTLED_MS + 100 - Date.now()));
  const html = { Accept: 'text/html' };
  const koaFile = (name: string): Endpoint => ({ label: 'koa-static', server: koa, path: `/${name}` });
  const rows = await compareHttp(
    'static',
    [
      { name: '/static 1 KB', fw: { label: 'fw /static mount', server: fw, path: '/static/small.css' }, baseline: koaFile('small.css'), target: '≥ 1.0×' },
      { name: '/static 100 KB', fw: { label: 'fw /static mount', server: fw, path: '/static/large.js' }, baseline: koaFile('large.js'), target: '≥ 1.0×' },
      {
        name: 'catch-all asset 1 KB',
        fw: { label: 'fw catch-all (Vite app, production)', server: fwVite, path: '/logo.svg', headers: { Cookie: 'vite_ns=fluid/frontend' } },
        baseline: koaFile('logo.svg'),
        target: '≥ 0.9×',
        note: 'Vite app in production with its build present (FW_CHECK_FRONTEND and FW_BUILD_FRONTEND off, so the boot does not build).',
      },
      {
        name: 'styled 404 vs plain 404',
        fw: { label: 'fw styled 404 (Accept: text/html)', server: fw, path: '/missing', headers: html, status: 404 },
        baseline: { label: 'fw plain 404 (no Accept)', server: fw, path: '/missing', status: 404 },
        differentBytes: 'the styled page against the plain text answer of the same app',
        target: 'CPU ≤ 1.10×',
      },
      {
        name: 'styled 404 vs the same bytes from Koa',
        fw: { label: 'fw styled 404 (Accept: text/html)', server: fw, path: '/missing', headers: html, status: 404 },
        baseline: { label: 'Koa 404 answering the page from memory', server: koa, path: '/missing', headers: html, status: 404 },
        note: "Koa's chain runs koa-static first (a stat of the missing file), as an app serving static files at / would.",
      },
    ],
    { rounds: ROUNDS },
  );
  report('Static files and 404 pages', httpSettings(ROUNDS), rows);
} finally {
  await stopAll(servers);
}
