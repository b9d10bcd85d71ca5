import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseCommandArgs } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { findProjectRoot } from '../project.js';

/** Usage text of `fw start`. */
export const help = `Usage: fw start [options]

Runs the production build, exactly as "npm start" does: node --enable-source-maps
dist/fluid/server.js (build it first with "npm run build"). Production servers need no fw:
this is a convenience for running the build locally. SIGTERM drains and shuts it down
gracefully; SIGINT shuts it down.

Options:
  --workers <n>  worker processes on node:cluster (default: WEB_CONCURRENCY from config, else 1)
  --port <n>     port to listen on (default: PORT from the environment or config, else 8000)
  --host <h>     interface to listen on (default: HOST from config, else 127.0.0.1)
  -h, --help     show this help

Examples:
  npx fw start --workers 2
  npm start -- --workers 2      # the same, without fw`;

/** The compiled production entry, relative to the project root. */
export const SERVER_ENTRY = 'dist/fluid/server.js';

/** `fw start`: runs `node dist/fluid/server.js` with the options, relays SIGINT/SIGTERM once, and returns its exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('fw start', argv, {
    workers: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new CliError(`fw start: unexpected argument ${positionals.join(' ')}. Run "fw start --help" for usage.`);
  if (values.workers !== undefined && !/^[1-9]\d*$/.test(values.workers)) {
    throw new CliError(`--workers: got ${JSON.stringify(values.workers)}; expected a whole number of worker processes, at least 1`);
  }
  if (values.port !== undefined && !(/^\d+$/.test(values.port) && Number(values.port) <= 65535)) {
    throw new CliError(`--port: got ${JSON.stringify(values.port)}; expected an integer from 0 to 65535`);
  }
  if (values.host !== undefined && values.host.trim() === '') throw new CliError('--host: got an empty string; expected a host name or IP address');
  const root = await findProjectRoot(io.cwd);
  if (!existsSync(path.join(root, SERVER_ENTRY))) {
    throw new CliError(`${SERVER_ENTRY} not found in ${root}: build the app first with "npm run build".`);
  }
  const args = [
    ...(values.workers === undefined ? [] : ['--workers', values.workers]),
    ...(values.port === undefined ? [] : ['--port', values.port]),
    ...(values.host === undefined ? [] : ['--host', values.host]),
  ];
  // Its own process group: a terminal's Ctrl-C reaches only fw, which relays exactly one signal
  // (a second one makes the server exit at once, skipping the shutdown hooks).
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_ENTRY, ...args], { cwd: root, stdio: 'inherit', env: io.env, detached: true });
  const relay = (signal: NodeJS.Signals): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  process.on('SIGINT', relay);
  process.on('SIGTERM', relay);
  process.once('exit', () => relay('SIGKILL'));
  return new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', relay);
      process.off('SIGTERM', relay);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}
