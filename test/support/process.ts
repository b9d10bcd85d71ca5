/** Child processes and ports for the end-to-end tests. */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * Runs a command to completion (with `CI=1`, in `env`, default this process's environment); an
 * exit status outside `ok` throws with the command, the folder and both outputs, so a failing
 * step says what failed.
 */
export function sh(
  command: string,
  args: string[],
  cwd: string,
  timeout = 180_000,
  ok: number[] = [0],
  env: NodeJS.ProcessEnv = process.env,
): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout, env: { ...env, CI: '1' }, maxBuffer: 64 * 1024 * 1024 });
  if (!ok.includes(result.status ?? -1)) {
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${result.status}, ${result.signal ?? 'no signal'}):\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
