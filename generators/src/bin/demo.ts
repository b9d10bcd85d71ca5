#!/usr/bin/env node
/**
 * `npm run demo`: creates `.tmp/demo-app` from this checkout (`--yes --force --local`: the app
 * links this checkout's kernel and CLI), installs it, makes sure it has an app config, serves it
 * on a free port and prints its URL. Runs until Ctrl-C. Not shipped in @fw/cli.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { checkoutRoot } from '../package-info.js';

const NAME = 'demo-app';
const checkout = checkoutRoot();
if (checkout === undefined) {
  process.stderr.write('demo: runs from an fw checkout only (npm run demo)\n');
  process.exit(1);
}
const demoDir = path.join(checkout, '.tmp', NAME);
const bins = path.join(checkout, 'generators', 'dist', 'bin');

function step(title: string, command: string, args: string[], cwd: string): void {
  process.stdout.write(`\n> ${title}\n`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`demo: "${[command, ...args].join(' ')}" failed (exit ${result.status ?? result.signal}) in ${cwd}\n`);
    process.exit(1);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

step(`create-fw-app .tmp/${NAME} --yes --force --local`, process.execPath, [path.join(bins, 'create-fw-app.js'), demoDir, '--yes', '--force', '--local'], checkout);
step('npm install', 'npm', ['install', '--no-audit', '--no-fund'], demoDir);
if (existsSync(path.join(demoDir, 'app_configs', `${NAME}.ini`))) {
  process.stdout.write(`\n> app_configs/${NAME}.ini exists, keeping its SECRET_KEY\n`);
} else {
  step(`fw create app ${NAME}`, process.execPath, [path.join(demoDir, 'node_modules', '.bin', 'fw'), 'create', 'app', NAME], demoDir);
}

const port = await freePort();
process.stdout.write(`\n> fw run --port ${port}\n`);
// node_modules/.bin/fw is what `npx fw` runs; started directly so signals reach it.
const server = spawn(process.execPath, [path.join(demoDir, 'node_modules', '.bin', 'fw'), 'run', '--port', String(port)], {
  cwd: demoDir,
  stdio: ['ignore', 'pipe', 'inherit'],
  // Its own process group: Ctrl-C reaches only this script, which passes exactly one signal on
  // (a second signal would make serve() exit at once, skipping the shutdown hooks).
  detached: true,
});
process.once('exit', () => {
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
});
let announced = false;
server.stdout.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (!announced && chunk.toString().includes('serving at')) {
    announced = true;
    process.stdout.write(`\nfw demo running at http://127.0.0.1:${port}/ (Ctrl-C to stop)\n`);
  }
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (server.exitCode === null) server.kill(signal);
  });
}
server.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 0 : 1));
});
