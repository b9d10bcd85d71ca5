import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../support/prisma.js';

// Runs in a fresh Node process with a resolve hook that reports every `@prisma/*` import, so
// what the kernel's db module loads (and when) is observed, not assumed.
const SCRIPT = `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
const { port1, port2 } = new MessageChannel();
const seen = [];
port1.on('message', (specifier) => seen.push(specifier));
port1.unref();
const hooks = 'let port; export function initialize(data) { port = data.port; }' +
  'export async function resolve(s, c, next) { if (s.startsWith("@prisma/")) port.postMessage(s); return next(s, c); }';
register('data:text/javascript,' + encodeURIComponent(hooks), { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });
const settle = () => new Promise((r) => setTimeout(r, 100));

const { Database } = await import(process.argv[2]);
class Client {
  constructor(options) { this.adapter = options.adapter; }
  async $connect() {}
  async $disconnect() {}
}
const db = new Database({ binds: { main: 'file::memory:', reports: 'postgres://u@127.0.0.1:1/x' }, root: '/tmp', clients: { main: Client, reports: Client } });
const main = db.bind('main');
db.bind('reports');
await settle();
const beforeConnect = [...seen];
const connection = await main.adapter.connect();
await settle();
const afterConnect = [...seen];
await connection.dispose();
console.log(JSON.stringify({ beforeConnect, afterConnect, provider: connection.provider }));
`;

it('the db module loads no @prisma/* package until a bind first connects, and then only its own adapter', async () => {
  const dir = await mkdtemp(path.join(REPO_ROOT, '.tmp', 'lazy-'));
  try {
    const script = path.join(dir, 'lazy.mts');
    await writeFile(script, SCRIPT);
    const kernelDb = pathToFileURL(path.join(REPO_ROOT, 'runtime-kernel/src/db/index.ts')).href;
    const run = spawnSync(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), [script, kernelDb], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout.trim().split('\n').pop()!) as { beforeConnect: string[]; afterConnect: string[]; provider: string };
    expect(result.beforeConnect).toEqual([]);
    expect(result.afterConnect).toContain('@prisma/adapter-libsql');
    expect(result.afterConnect).not.toContain('@prisma/adapter-pg');
    expect(result.provider).toBe('sqlite');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
